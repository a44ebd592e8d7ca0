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
