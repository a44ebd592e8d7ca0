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
    form.failure.clear();
    try {
      await submit(payload);
    } catch {
      // Shown in the dialog (or on its fields) by the hook; the dialog stays open.
    }
  });

  // A stored contact answers null for a missing e-mail or phone; inputs need text.
  const textProps = (field: "name" | "email" | "phoneNumber") => ({
    ...getInputProps(field),
    value: values[field] ?? "",
  });

  return (
    <FormDialog
      title={title}
      opened={visible}
      onClose={close}
      onSubmit={handleSubmit}
      loading={formLoading}
      error={form.failure.message}
    >
      <TextInput label="Name" withAsterisk data-autofocus {...textProps("name")} />
      <TextInput label="Email" type="email" {...textProps("email")} />
      <TextInput label="Phone" type="tel" {...textProps("phoneNumber")} />
    </FormDialog>
  );
}
