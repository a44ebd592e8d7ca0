import { TextInput } from "@mantine/core";
import { ModalFormDialog } from "../../ui/form-dialog";
import type { ContactModalForm } from "./use-contact-modal-form";

/** The add / edit contact dialog; server field errors land on the field like local ones. */
export function ContactFormModal({ form, title }: { form: ContactModalForm; title: string }) {
  // A stored contact answers null for a missing e-mail or phone; inputs need text.
  const textProps = (field: "name" | "email" | "phoneNumber") => ({
    ...form.getInputProps(field),
    value: form.values[field] ?? "",
  });

  return (
    <ModalFormDialog form={form} title={title}>
      <TextInput label="Name" withAsterisk data-autofocus {...textProps("name")} />
      <TextInput label="Email" type="email" {...textProps("email")} />
      <TextInput label="Phone" type="tel" {...textProps("phoneNumber")} />
    </ModalFormDialog>
  );
}
