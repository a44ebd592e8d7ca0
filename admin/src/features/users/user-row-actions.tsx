import { useState } from "react";
import { Button, Group, Stack, Text } from "@mantine/core";
import { useUpdate, type HttpError } from "@refinedev/core";
import { describeConflict } from "../../lib/edit-changes";
import { conflictOf } from "../../lib/use-versioned-edit";
import { ConflictAlert } from "../../ui/conflict-alert";
import type { ManagedUser } from "./access-labels";
import { ResetTwoFactorButton } from "./reset-two-factor";
import { RevokeDialog } from "./revoke-dialog";
import { signedInUid } from "../../providers/session";
import { t } from "../../i18n";

type Change = { hasAccess: boolean } | { role: "admin" | "staff" };

/** What a row changes of a user, and how its fields are named in a conflict. */
const roleAndAccess = ({ role, hasAccess }: Pick<ManagedUser, "role" | "hasAccess">) => ({ role, hasAccess });
const labels = () => ({ role: t("users.role"), hasAccess: t("users.access") });

/** A change refused because someone else changed the user first: to send again on top of theirs. */
interface Refused {
  message: string;
  change: Change;
  version: number | undefined;
  onSuccess?: () => void;
}

const confirmation = (change: Change, email: string) =>
  "hasAccess" in change
    ? t(change.hasAccess ? "users.accessApproved" : "users.accessRevoked", { email })
    : t(change.role === "admin" ? "users.nowAdmin" : "users.nowStaff", { email });

/**
 * Approve / Revoke / Make admin / Make staff, each one PUT through `useUpdate` with If-Match of
 * the row's version. The server's refusals (your own account, the last admin) show here, in the
 * row or the dialog; a change made is confirmed by a notification. When another admin changed the
 * user since the row was shown, the row says who changed what and offers to apply the change anyway.
 */
export function UserRowActions({ user }: { user: ManagedUser }) {
  const { mutate, mutation } = useUpdate<ManagedUser, HttpError, Change>();
  const [error, setError] = useState<string | null>(null);
  const [confirmingRevoke, setConfirmingRevoke] = useState(false);
  const [refused, setRefused] = useState<Refused | null>(null);

  const change = (values: Change, onSuccess?: () => void, version = user.version) => {
    setError(null);
    setRefused(null);
    mutate(
      {
        resource: "users",
        id: user.uid,
        values,
        meta: { ifMatch: version },
        successNotification: { type: "success", message: confirmation(values, user.email) },
        errorNotification: false,
      },
      {
        onSuccess,
        onError: (err) => {
          const conflict = conflictOf<ManagedUser>(err);
          if (!conflict) return setError(err.message);
          const { message } = describeConflict(
            conflict.changedBy,
            roleAndAccess(user),
            roleAndAccess(conflict.current),
            labels(),
          );
          setConfirmingRevoke(false);
          setRefused({ message, change: values, version: conflict.current.version, onSuccess });
        },
      },
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
            {t("users.revoke")}
          </Button>
        ) : (
          <Button size="xs" color="green" loading={busy} onClick={() => change({ hasAccess: true })}>
            {t("users.approve")}
          </Button>
        )}
        {user.role === "admin" ? (
          <Button size="xs" variant="default" disabled={busy} onClick={() => change({ role: "staff" })}>
            {t("users.makeStaff")}
          </Button>
        ) : (
          <Button size="xs" variant="default" disabled={busy} onClick={() => change({ role: "admin" })}>
            {t("users.makeAdmin")}
          </Button>
        )}
        {user.twoFactor && user.uid !== signedInUid() && <ResetTwoFactorButton user={user} disabled={busy} />}
      </Group>
      <ConflictAlert
        conflict={refused}
        busy={busy}
        onApply={() => refused && change(refused.change, refused.onSuccess, refused.version)}
        onDiscard={() => setRefused(null)}
      />
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
