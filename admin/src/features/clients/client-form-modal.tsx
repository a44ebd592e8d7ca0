import { TextInput } from "@mantine/core";
import { ModalFormDialog } from "../../ui/form-dialog";
import type { ClientModalForm } from "./use-client-modal-form";
import { t } from "../../i18n";

/** The add / edit client dialog; server field errors land on the field like local ones. */
export function ClientFormModal({ form, title }: { form: ClientModalForm; title: string }) {
  return (
    <ModalFormDialog form={form} title={title}>
      <TextInput label={t("clients.name")} withAsterisk data-autofocus {...form.getInputProps("name")} />
    </ModalFormDialog>
  );
}
