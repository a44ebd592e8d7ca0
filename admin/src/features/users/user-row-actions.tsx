import { useState } from "react";
import { Button, Group, Stack, Text } from "@mantine/core";
import { useUpdate, type HttpError } from "@refinedev/core";
import type { ManagedUser } from "./access-labels";
import { RevokeDialog } from "./revoke-dialog";

type Change = { hasAccess: boolean } | { role: "admin" | "staff" };

const confirmation = (change: Change, email: string) =>
  "hasAccess" in change
    ? `${email}: access ${change.hasAccess ? "approved" : "revoked"}`
    : `${email} is now ${change.role === "admin" ? "an admin" : "staff"}`;

/**
 * Approve / Revoke / Make admin / Make staff, each one PUT through `useUpdate`. The server's
 * refusals (your own account, the last admin) show here, in the row or the dialog; a change made
 * is confirmed by a notification.
 */
export function UserRowActions({ user }: { user: ManagedUser }) {
  const { mutate, mutation } = useUpdate<ManagedUser, HttpError, Change>();
  const [error, setError] = useState<string | null>(null);
  const [confirmingRevoke, setConfirmingRevoke] = useState(false);

  const change = (values: Change, onSuccess?: () => void) => {
    setError(null);
    mutate(
      {
        resource: "users",
        id: user.uid,
        values,
        successNotification: { type: "success", message: confirmation(values, user.email) },
        errorNotification: false,
      },
      { onSuccess, onError: (err) => setError(err.message) },
    );
  };

  const closeRevoke = () => {
    setConfirmingRevoke(false);
    setError(null);
  };

  const busy = mutation.isPending;
  return (
    <Stack spacing={4}>
      <Group spacing="xs" noWrap>
        {user.hasAccess ? (
          <Button
            size="xs"
            color="red"
            variant="light"
            disabled={busy}
            onClick={() => (setError(null), setConfirmingRevoke(true))}
          >
            Revoke
          </Button>
        ) : (
          <Button size="xs" color="green" loading={busy} onClick={() => change({ hasAccess: true })}>
            Approve
          </Button>
        )}
        {user.role === "admin" ? (
          <Button size="xs" variant="default" disabled={busy} onClick={() => change({ role: "staff" })}>
            Make staff
          </Button>
        ) : (
          <Button size="xs" variant="default" disabled={busy} onClick={() => change({ role: "admin" })}>
            Make admin
          </Button>
        )}
      </Group>
      {error && !confirmingRevoke && (
        <Text size="xs" color="red" role="alert">
          {error}
        </Text>
      )}
      <RevokeDialog
        email={confirmingRevoke ? user.email : null}
        loading={busy}
        error={confirmingRevoke ? error : null}
        onConfirm={() => change({ hasAccess: false }, () => setConfirmingRevoke(false))}
        onCancel={closeRevoke}
      />
    </Stack>
  );
}
