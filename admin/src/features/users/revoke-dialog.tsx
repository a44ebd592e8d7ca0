import { Alert, Button, Group, Modal, Text } from "@mantine/core";
import { Trans } from "react-i18next";
import { t } from "../../i18n";

interface RevokeDialogProps {
  email: string | null;
  loading: boolean;
  /** The server's refusal (own account, last admin), shown in the dialog. */
  error: string | null;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Asks before taking someone's access away, naming them. */
export function RevokeDialog({ email, loading, error, onConfirm, onCancel }: RevokeDialogProps) {
  return (
    <Modal opened={email !== null} onClose={onCancel} title={t("users.revokeAccess")} centered>
      <Text size="sm">
        <Trans i18nKey="users.revokeQuestion" values={{ email }} components={{ strong: <strong /> }} />
      </Text>
      {error && (
        <Alert color="red" role="alert" mt="md">
          {error}
        </Alert>
      )}
      <Group position="right" mt="lg">
        <Button variant="default" onClick={onCancel} disabled={loading}>
          {t("users.cancel")}
        </Button>
        <Button color="red" onClick={onConfirm} loading={loading}>
          {t("users.revoke")}
        </Button>
      </Group>
    </Modal>
  );
}
