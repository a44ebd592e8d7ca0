import type { ReactNode } from "react";
import { Button, Group, Modal, Text } from "@mantine/core";
import { FailureAlert } from "./failure-alert";
import { t } from "../i18n";

interface ConfirmDeleteDialogProps {
  opened: boolean;
  title: string;
  message: ReactNode;
  loading?: boolean;
  /** The red button's words, when not Delete (e.g. 'Reset two-factor'). */
  confirmLabel?: string;
  /** Why the last attempt failed (the server's message); the dialog stays open to try again. */
  error?: string | null;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Asks before anything is deleted (or taken away); Delete is the red, explicit choice. */
export function ConfirmDeleteDialog({
  opened,
  title,
  message,
  loading,
  confirmLabel,
  error,
  onConfirm,
  onCancel,
}: ConfirmDeleteDialogProps) {
  return (
    <Modal opened={opened} onClose={onCancel} title={title} centered>
      <Text size="sm">{message}</Text>
      {error && <FailureAlert message={error} />}
      <Group position="right" mt="lg">
        <Button variant="default" onClick={onCancel} disabled={loading}>
          {t("ui.cancel")}
        </Button>
        <Button color="red" onClick={onConfirm} loading={loading}>
          {confirmLabel ?? t("ui.delete")}
        </Button>
      </Group>
    </Modal>
  );
}
