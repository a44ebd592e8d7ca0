import { Alert, Button, Group, Text } from "@mantine/core";
import { IconUsers } from "@tabler/icons-react";
import { t } from "../i18n";

interface ConflictAlertProps {
  conflict: { message: string } | null;
  busy?: boolean;
  onApply: () => void;
  onDiscard: () => void;
}

/**
 * Someone saved the record while this form was open: who changed what, with the user's own
 * changes still in the form, to send on top of theirs or to drop.
 */
export function ConflictAlert({ conflict, busy = false, onApply, onDiscard }: ConflictAlertProps) {
  if (!conflict) return null;
  return (
    <Alert color="yellow" mt="md" icon={<IconUsers size={18} />} title={conflict.message} role="alert">
      <Text size="sm">{t("ui.yourChangesAreStillInThe")}</Text>
      <Group spacing="xs" mt="sm">
        <Button size="xs" loading={busy} onClick={onApply}>
          {t("ui.applyMyChangesOnTop")}
        </Button>
        <Button size="xs" variant="default" disabled={busy} onClick={onDiscard}>
          {t("ui.discardMyChanges")}
        </Button>
      </Group>
    </Alert>
  );
}
