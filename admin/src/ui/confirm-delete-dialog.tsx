import type { ReactNode } from "react";
import { Button, Group, Modal, Text } from "@mantine/core";

interface ConfirmDeleteDialogProps {
  opened: boolean;
  title: string;
  message: ReactNode;
  loading?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Asks before anything is deleted; Delete is the red, explicit choice. */
export function ConfirmDeleteDialog({
  opened,
  title,
  message,
  loading,
  onConfirm,
  onCancel,
}: ConfirmDeleteDialogProps) {
  return (
    <Modal opened={opened} onClose={onCancel} title={title} centered>
      <Text size="sm">{message}</Text>
      <Group position="right" mt="lg">
        <Button variant="default" onClick={onCancel} disabled={loading}>
          Cancel
        </Button>
        <Button color="red" onClick={onConfirm} loading={loading}>
          Delete
        </Button>
      </Group>
    </Modal>
  );
}
