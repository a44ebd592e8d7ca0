import { useState } from "react";
import { Alert, Button, Group, Paper, Stack, Text, Title } from "@mantine/core";
import { useList } from "@refinedev/core";
import { IconFingerprint, IconPlus } from "@tabler/icons-react";
import { FailureAlert } from "../../../ui/failure-alert";
import { t } from "../../../i18n";
import { AddPasskeyDialog } from "./add-passkey-dialog";
import { PASSKEYS, PasskeyRow, type Passkey } from "./passkey-rows";
import { usePasskeySupport } from "./use-passkey-support";
import { useTwoFactorStatus } from "./use-two-factor";

/** Passkeys: the list, and 'Add a passkey' where this page may (else why not). */
export function PasskeysSection() {
  const support = usePasskeySupport();
  const { status } = useTwoFactorStatus();
  const [adding, setAdding] = useState(false);
  // Until a required two-factor sign-in is on, the server refuses everything here.
  const heldBack = status?.required === true && !status.enabled;
  const { result, query } = useList<Passkey>({
    resource: PASSKEYS,
    pagination: { mode: "off" },
    errorNotification: false,
    queryOptions: { enabled: !heldBack },
  });
  const passkeys = result.data ?? [];

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="security-passkeys">
      <Stack spacing="sm">
        <Group position="apart" spacing="xs">
          <Title order={2} size="h3" id="security-passkeys">
            {t("security.passkeysTitle")}
          </Title>
          {support.offered && !heldBack && (
            <Button leftIcon={<IconPlus size={18} />} variant="light" onClick={() => setAdding(true)}>
              {t("security.addPasskey")}
            </Button>
          )}
        </Group>
        <Text size="sm" color="dimmed">
          {t("security.passkeysIntro")}
        </Text>
        {support.known && !support.offered && (
          <Alert color="gray" title={t("security.passkeysNeedHttps")}>
            {support.reason}
          </Alert>
        )}
        {heldBack ? (
          <Text size="sm">{t("security.passkeysAfterTwoFactor")}</Text>
        ) : query.isError ? (
          <FailureAlert message={t("security.failedToLoad")} mt={0} />
        ) : passkeys.length === 0 && !query.isLoading ? (
          <Group spacing="xs" c="dimmed">
            <IconFingerprint size={18} />
            <Text size="sm">{t("security.noPasskeys")}</Text>
          </Group>
        ) : (
          <Stack role="list" aria-label={t("security.passkeysTitle")} spacing="xs">
            {passkeys.map((passkey) => (
              <PasskeyRow key={passkey.id} passkey={passkey} />
            ))}
          </Stack>
        )}
      </Stack>
      {adding && <AddPasskeyDialog twoFactorOn={status?.enabled === true} onClose={() => setAdding(false)} />}
    </Paper>
  );
}
