import { Button, Group, Modal, TextInput } from "@mantine/core";
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
    <Modal opened={visible} onClose={close} title={title} centered>
      <form onSubmit={handleSubmit} noValidate>
        <TextInput label="Name" withAsterisk data-autofocus {...getInputProps("name")} />
        <Group position="right" mt="lg">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" loading={formLoading}>
            Save
          </Button>
        </Group>
      </form>
    </Modal>
  );
}
