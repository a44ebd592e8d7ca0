import { useState } from "react";
import { Code, Modal, Select, Text, TextInput } from "@mantine/core";
import { useCreate, type HttpError } from "@refinedev/core";
import type { ApiTokenRequest, ApiTokenScope, CreatedApiToken } from "../../../../api/types";
import { DialogForm } from "../../ui/form-dialog";
import { ShownOnceSecret } from "../../ui/shown-once-secret";
import { EXPIRY_CHOICES, expiryFrom } from "./token-expiry";
import { Trans } from "react-i18next";
import { t } from "../../i18n";

const SCOPES: Array<{ value: ApiTokenScope; label: string }> = [
  { value: "read", label: "account.readOnly" },
  { value: "write", label: "account.readWrite" },
  { value: "admin", label: "account.adminScope" },
];

/** The form for a new token, then the token itself, shown this once. Mounted only while open: each opening starts empty. */
export function NewTokenDialog({ onClose, isAdmin }: { onClose: () => void; isAdmin: boolean }) {
  const [name, setName] = useState("");
  const [scope, setScope] = useState<ApiTokenScope>("read");
  const [expiry, setExpiry] = useState("90");
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  const [error, setError] = useState<HttpError | null>(null);
  const { mutate, mutation } = useCreate<CreatedApiToken, HttpError, ApiTokenRequest>();

  const submit = () => {
    setError(null);
    mutate(
      {
        resource: "users/me/tokens",
        values: { name: name.trim(), scope, expiresAt: expiryFrom(expiry) },
        successNotification: false,
        errorNotification: false,
      },
      { onSuccess: (answer) => setCreated(answer.data), onError: setError },
    );
  };

  return (
    <Modal opened onClose={onClose} title={created ? t("account.yourNewApiToken") : t("account.newApiToken")} centered>
      {created ? (
        <ShownOnceSecret
          secret={created.token}
          label={t("account.apiToken")}
          copyLabel={t("account.copyToken")}
          onDone={onClose}
        />
      ) : (
        <DialogForm
          onCancel={onClose}
          onSubmit={submit}
          loading={mutation.isPending}
          saveDisabled={name.trim() === ""}
          submitLabel={t("account.createToken")}
          error={error && !error.errors?.name ? error.message : null}
        >
          <TextInput
            label={t("account.name")}
            description={t("account.whatUsesItEGBooking")}
            required
            maxLength={100}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={typeof error?.errors?.name === "string" ? error.errors.name : undefined}
            data-autofocus
          />
          <Select
            label={t("account.access")}
            data={SCOPES.filter((s) => isAdmin || s.value !== "admin").map(({ value, label }) => ({
              value,
              label: t(label),
            }))}
            value={scope}
            onChange={(value) => setScope((value as ApiTokenScope | null) ?? "read")}
          />
          <Select
            label={t("account.expires")}
            data={EXPIRY_CHOICES.map(({ value, label }) => ({ value, label: t(label) }))}
            value={expiry}
            onChange={(value) => setExpiry(value ?? "90")}
          />
          <Text size="sm" color="dimmed">
            <Trans i18nKey="account.howScriptsUseIt" components={{ code: <Code>{""}</Code> }} />
          </Text>
        </DialogForm>
      )}
    </Modal>
  );
}
