import { useState } from "react";
import { Badge, Button, Group, Modal, Paper, Stack, Text, Title } from "@mantine/core";
import { useCustomMutation } from "@refinedev/core";
import { IconShieldCheck, IconShieldOff } from "@tabler/icons-react";
import { ConfirmButton } from "../../../ui/confirm-button";
import { FailureAlert } from "../../../ui/failure-alert";
import { t } from "../../../i18n";
import { EnrolDialog } from "./enrol-dialog";
import { RecoveryCodes } from "./recovery-codes";
import { TurnOffDialog } from "./turn-off-dialog";
import { TWO_FACTOR_URL, useTwoFactorStatus } from "./use-two-factor";

/** Authenticator-app codes: turn on (QR code, then a code), turn off (with a proof), new recovery codes. */
export function TwoFactorSection() {
  const { status, query } = useTwoFactorStatus();
  const [dialog, setDialog] = useState<"enrol" | "off" | null>(null);
  const [newCodes, setNewCodes] = useState<string[] | null>(null);
  const { mutateAsync: regenerate, mutation: regenerating } = useCustomMutation<{ recoveryCodes: string[] }>();
  const refresh = () => void query.refetch();
  const close = () => {
    setDialog(null);
    refresh();
  };

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="security-two-factor">
      <Stack spacing="sm">
        <Group position="apart" spacing="xs">
          <Title order={2} size="h3" id="security-two-factor">
            {t("security.twoFactorTitle")}
          </Title>
          {status &&
            (status.enabled ? (
              <Badge color="green" leftSection={<IconShieldCheck size={12} />}>
                {t("security.on")}
              </Badge>
            ) : (
              <Badge color="gray" leftSection={<IconShieldOff size={12} />}>
                {t("security.off")}
              </Badge>
            ))}
        </Group>
        <Text size="sm" color="dimmed">
          {t("security.twoFactorIntro")}
        </Text>
        {query.isError && <FailureAlert message={t("security.failedToLoad")} mt={0} />}
        {status?.required && !status.enabled && <FailureAlert message={t("security.requiredByStudio")} mt={0} />}
        {status?.enabled ? (
          <>
            <Text size="sm">{t("security.recoveryCodesLeft", { count: status.recoveryCodesLeft })}</Text>
            <Group spacing="xs">
              <ConfirmButton
                label={t("security.newRecoveryCodes")}
                title={t("security.newRecoveryCodesTitle")}
                confirmLabel={t("security.makeNewCodes")}
                variant="light"
                pending={regenerating.isPending}
                onConfirm={() =>
                  regenerate({
                    url: `${TWO_FACTOR_URL}/recovery-codes`,
                    method: "post",
                    values: {},
                    successNotification: false,
                    errorNotification: false,
                  }).then(({ data }) => setNewCodes(data.recoveryCodes))
                }
              >
                <Text size="sm" mb="md">
                  {t("security.newRecoveryCodesExplain")}
                </Text>
              </ConfirmButton>
              <Button variant="subtle" color="red" onClick={() => setDialog("off")}>
                {t("security.turnOff")}
              </Button>
            </Group>
          </>
        ) : (
          status && (
            <Group>
              <Button leftIcon={<IconShieldCheck size={18} />} onClick={() => setDialog("enrol")}>
                {t("security.turnOnButton")}
              </Button>
            </Group>
          )
        )}
      </Stack>
      {dialog === "enrol" && <EnrolDialog onClose={close} />}
      {dialog === "off" && <TurnOffDialog onClose={() => setDialog(null)} onDone={close} />}
      {newCodes && (
        <Modal opened onClose={() => setNewCodes(null)} title={t("security.yourRecoveryCodes")} centered size="lg">
          <RecoveryCodes
            codes={newCodes}
            onDone={() => {
              setNewCodes(null);
              refresh();
            }}
          />
        </Modal>
      )}
    </Paper>
  );
}
