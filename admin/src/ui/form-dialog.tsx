import type { FormEvent, ReactNode } from "react";
import { Button, Group, Modal, Stack } from "@mantine/core";
import { FailureAlert } from "./failure-alert";

interface FormDialogProps {
  title: string;
  opened: boolean;
  onClose: () => void;
  onSubmit: (event?: FormEvent<HTMLFormElement>) => void;
  loading: boolean;
  saveDisabled?: boolean;
  /** Why the last save failed (the server's message); the dialog stays open to try again. */
  error?: string | null;
  children: ReactNode;
}

/** The shell every add / edit dialog shares: its fields, then Cancel and Save. */
export function FormDialog({
  title,
  opened,
  onClose,
  onSubmit,
  loading,
  saveDisabled,
  error,
  children,
}: FormDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <form onSubmit={onSubmit} noValidate>
        <Stack spacing="sm">{children}</Stack>
        {error && <FailureAlert message={error} />}
        <Group position="right" mt="lg">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={loading} disabled={saveDisabled}>
            Save
          </Button>
        </Group>
      </form>
    </Modal>
  );
}

/** What `ModalFormDialog` needs of a Refine modal form whose hook keeps its failure (`useFailure`). */
export interface FailingModalForm<V> {
  onSubmit: (handle: (values: V) => Promise<void>) => (event?: FormEvent<HTMLFormElement>) => void;
  modal: { visible: boolean; close: () => void; submit: (values: V) => unknown };
  refineCore: { formLoading: boolean };
  saveButtonProps?: { disabled?: boolean };
  failure: { message: string | null; clear: () => void };
}

/**
 * A modal form's dialog: Save clears the last failure and submits; a failure is shown by the form's
 * hook (in the dialog, or on its fields) and the dialog stays open to try again.
 */
export function ModalFormDialog<V>({
  form,
  title,
  children,
}: {
  form: FailingModalForm<V>;
  title: string;
  children: ReactNode;
}) {
  const { modal, failure } = form;
  const handleSubmit = form.onSubmit(async (values) => {
    failure.clear();
    try {
      await modal.submit(values);
    } catch {
      // Already shown by the form's hook.
    }
  });
  return (
    <FormDialog
      title={title}
      opened={modal.visible}
      onClose={modal.close}
      onSubmit={handleSubmit}
      loading={form.refineCore.formLoading}
      saveDisabled={form.saveButtonProps?.disabled}
      error={failure.message}
    >
      {children}
    </FormDialog>
  );
}
