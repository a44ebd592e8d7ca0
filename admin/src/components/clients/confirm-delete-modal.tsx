import type { ReactNode } from "react";
import { Button, Group, Modal, Text } from "@mantine/core";

interface ConfirmDeleteModalProps {
  opened: boolean;
  title: string;
  children: ReactNode;
  loading?: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}

/** Asks before anything is deleted; Delete is the red, explicit choice. */
export function ConfirmDeleteModal({ opened, title, children, loading, onCancel, onConfirm }: ConfirmDeleteModalProps) {
  return (
    <Modal opened={opened} onClose={onCancel} title={title} centered>
      <Text size="sm">{children}</Text>
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
