import { TextInput } from "@mantine/core";
import { ModalFormDialog } from "../../ui/form-dialog";
import type { ContactModalForm } from "./use-contact-modal-form";
import { t } from "../../i18n";

/** The add / edit contact dialog; server field errors land on the field like local ones. */
export function ContactFormModal({ form, title }: { form: ContactModalForm; title: string }) {
  // A stored contact answers null for a missing e-mail or phone; inputs need text.
  const textProps = (field: "name" | "email" | "phoneNumber") => ({
    ...form.getInputProps(field),
    value: form.values[field] ?? "",
  });

  return (
    <ModalFormDialog form={form} title={title}>
      <TextInput label={t("contacts.name")} withAsterisk data-autofocus {...textProps("name")} />
      <TextInput label={t("contacts.email")} type="email" {...textProps("email")} />
      <TextInput label={t("contacts.phone")} type="tel" {...textProps("phoneNumber")} />
    </ModalFormDialog>
  );
}
