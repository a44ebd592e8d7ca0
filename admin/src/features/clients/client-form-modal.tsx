import { TextInput } from "@mantine/core";
import { FormDialog } from "../../ui/form-dialog";
import type { ClientModalForm } from "./use-client-modal-form";

/** The add / edit client dialog; server field errors land on the field like local ones. */
export function ClientFormModal({ form, title }: { form: ClientModalForm; title: string }) {
  const {
    getInputProps,
    onSubmit,
    modal: { visible, close, submit },
    refineCore: { formLoading },
  } = form;

  const handleSubmit = onSubmit(async (values) => {
    form.failure.clear();
    try {
      await submit(values);
    } catch {
      // Shown in the dialog (or on its field) by the hook; the dialog stays open.
    }
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
      <TextInput label="Name" withAsterisk data-autofocus {...getInputProps("name")} />
    </FormDialog>
  );
}
