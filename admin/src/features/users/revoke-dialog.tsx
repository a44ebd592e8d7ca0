import { Alert, Button, Group, Modal, Text } from "@mantine/core";

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
    <Modal opened={email !== null} onClose={onCancel} title="Revoke access" centered>
      <Text size="sm">
        Revoke access for <strong>{email}</strong>? They will see the request-access screen on their next action.
      </Text>
      {error && (
        <Alert color="red" role="alert" mt="md">
          {error}
        </Alert>
      )}
      <Group position="right" mt="lg">
        <Button variant="default" onClick={onCancel} disabled={loading}>
          Cancel
        </Button>
        <Button color="red" onClick={onConfirm} loading={loading}>
          Revoke
        </Button>
      </Group>
    </Modal>
  );
}
