import { TextInput } from "@mantine/core";
import { FormDialog } from "../../ui/form-dialog";
import type { ContactModalForm } from "./use-contact-modal-form";

/** The add / edit contact dialog; server field errors land on the field like local ones. */
export function ContactFormModal({ form, title }: { form: ContactModalForm; title: string }) {
  const {
    getInputProps,
    values,
    onSubmit,
    modal: { visible, close, submit },
    refineCore: { formLoading },
  } = form;

  const handleSubmit = onSubmit(async (payload) => {
    try {
      await submit(payload);
    } catch {
      // The failure is on the form already (field errors) and logged by the hook.
    }
  });

  // A stored contact answers null for a missing e-mail or phone; inputs need text.
  const textProps = (field: "name" | "email" | "phoneNumber") => ({
    ...getInputProps(field),
    value: values[field] ?? "",
  });

  return (
    <FormDialog title={title} opened={visible} onClose={close} onSubmit={handleSubmit} loading={formLoading}>
      <TextInput label="Name" withAsterisk data-autofocus {...textProps("name")} />
      <TextInput label="Email" type="email" {...textProps("email")} />
      <TextInput label="Phone" type="tel" {...textProps("phoneNumber")} />
    </FormDialog>
  );
}
