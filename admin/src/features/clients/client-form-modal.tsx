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
    try {
      await submit(values);
    } catch {
      // The failure is on the form already (field errors) and logged by the hook.
    }
  });

  return (
    <FormDialog title={title} opened={visible} onClose={close} onSubmit={handleSubmit} loading={formLoading}>
      <TextInput label="Name" withAsterisk data-autofocus {...getInputProps("name")} />
    </FormDialog>
  );
}
