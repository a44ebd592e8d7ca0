import { useState } from "react";
import { Button } from "@mantine/core";
import { useCustomMutation, useInvalidate, useNotification } from "@refinedev/core";
import { Trans } from "react-i18next";
import { ConfirmDeleteDialog } from "../../ui/confirm-delete-dialog";
import type { ManagedUser } from "./access-labels";
import { t } from "../../i18n";

/**
 * 'Reset two-factor' on a user's row (never one's own: that goes off in Security), behind a
 * confirmation: DELETE /api/users/{uid}/two-factor, which mails the user and is logged.
 */
export function ResetTwoFactorButton({ user, disabled }: { user: ManagedUser; disabled?: boolean }) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { mutate, mutation } = useCustomMutation();
  const invalidate = useInvalidate();
  const { open } = useNotification();
  const busy = mutation.isPending;

  const close = () => {
    setConfirming(false);
    setError(null);
  };
  const reset = () => {
    setError(null);
    mutate(
      {
        url: `/users/${encodeURIComponent(user.uid)}/two-factor`,
        method: "delete",
        values: {},
        errorNotification: false,
      },
      {
        onSuccess: () => {
          setConfirming(false);
          open?.({ type: "success", message: t("users.twoFactorReset", { email: user.email }) });
          void invalidate({ resource: "users", invalidates: ["list", "detail"], id: user.uid });
        },
        onError: (failure) => setError(failure.message),
      },
    );
  };

  return (
    <>
      <Button size="xs" variant="default" disabled={disabled || busy} onClick={() => setConfirming(true)}>
        {t("users.resetTwoFactor")}
      </Button>
      <ConfirmDeleteDialog
        opened={confirming}
        title={t("users.resetTwoFactorTitle")}
        message={
          <Trans
            i18nKey="users.resetTwoFactorQuestion"
            values={{ email: user.email }}
            components={{ strong: <strong /> }}
          />
        }
        confirmLabel={t("users.resetTwoFactor")}
        loading={busy}
        error={error}
        onConfirm={reset}
        onCancel={close}
      />
    </>
  );
}
