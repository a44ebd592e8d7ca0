import { useState } from "react";
import { Button, Group, Paper, Stack, Text, TextInput } from "@mantine/core";
import { useUpdate, type HttpError } from "@refinedev/core";
import { formatDateTime } from "../../../lib/format";
import { ConfirmDeleteButton } from "../../../ui/confirm-button";
import { FormDialog } from "../../../ui/form-dialog";
import { t } from "../../../i18n";

export const PASSKEYS = "users/me/passkeys";

export interface Passkey {
  id: number;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** A passkey's name, as adding and renaming ask for it; the server's word on it under the field. */
export function PasskeyNameInput({
  value,
  onChange,
  error,
  description,
}: {
  value: string;
  onChange: (name: string) => void;
  error: HttpError | null;
  description?: string;
}) {
  return (
    <TextInput
      label={t("security.passkeyName")}
      description={description}
      required
      maxLength={100}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      error={typeof error?.errors?.name === "string" ? error.errors.name : undefined}
      data-autofocus
    />
  );
}

function RenameDialog({ passkey, onClose }: { passkey: Passkey; onClose: () => void }) {
  const [name, setName] = useState(passkey.name);
  const [error, setError] = useState<HttpError | null>(null);
  const { mutateAsync: update, mutation } = useUpdate();
  const submit = () => {
    setError(null);
    update({
      resource: PASSKEYS,
      id: passkey.id,
      values: { name: name.trim() },
      successNotification: false,
      errorNotification: false,
    }).then(onClose, setError);
  };
  return (
    <FormDialog
      opened
      title={t("security.renamePasskeyTitle")}
      onClose={onClose}
      onSubmit={submit}
      loading={mutation.isPending}
      saveDisabled={name.trim() === ""}
      error={error && !error.errors?.name ? error.message : null}
    >
      <PasskeyNameInput value={name} onChange={setName} error={error} />
    </FormDialog>
  );
}

/** One passkey as a card (they are few): its name, when added and last used, Rename and Remove. */
export function PasskeyRow({ passkey }: { passkey: Passkey }) {
  const [renaming, setRenaming] = useState(false);
  return (
    <Paper role="listitem" withBorder radius="md" p="sm">
      <Group position="apart" spacing="xs">
        <Stack spacing={2} sx={{ minWidth: 0 }}>
          <Text weight={600} sx={{ overflowWrap: "anywhere" }}>
            {passkey.name}
          </Text>
          <Text size="xs" color="dimmed">
            {t("security.passkeyAdded", { when: formatDateTime(passkey.createdAt) })}
            {" · "}
            {passkey.lastUsedAt
              ? t("security.passkeyLastUsed", { when: formatDateTime(passkey.lastUsedAt) })
              : t("security.passkeyNeverUsed")}
          </Text>
        </Stack>
        <Group spacing={4}>
          <Button variant="subtle" onClick={() => setRenaming(true)}>
            {t("security.rename")}
          </Button>
          <ConfirmDeleteButton
            resource={PASSKEYS}
            id={passkey.id}
            label={t("security.remove")}
            title={t("security.removePasskeyTitle", { name: passkey.name })}
            confirmLabel={t("security.removePasskey")}
          >
            <Text size="sm" mb="md">
              {t("security.removePasskeyExplain")}
            </Text>
          </ConfirmDeleteButton>
        </Group>
      </Group>
      {renaming && <RenameDialog passkey={passkey} onClose={() => setRenaming(false)} />}
    </Paper>
  );
}
