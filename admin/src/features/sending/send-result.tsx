import type { ReactNode } from "react";
import { Alert, List, Stack, Text } from "@mantine/core";
import { IconAlertCircle, IconCheck } from "@tabler/icons-react";
import type { SendResult } from "../../../../api/types";
import { t } from "../../i18n";

function Outcome({ title, color, icon, lines }: { title: string; color: string; icon?: ReactNode; lines: string[] }) {
  if (lines.length === 0) return null;
  return (
    <Alert color={color} icon={icon} title={title}>
      <List size="sm">
        {lines.map((line) => (
          <List.Item key={line}>{line}</List.Item>
        ))}
      </List>
    </Alert>
  );
}

/** What became of each recipient: sent, refused by the mail server (with its answer), or skipped. */
export function SendResultView({ result }: { result: SendResult }) {
  const { sent, failed, skipped } = result;
  return (
    <Stack spacing="sm" aria-label={t("sending.sendResult")}>
      <Outcome
        title={t("sending.sentTo", { count: sent.length })}
        color="green"
        icon={<IconCheck size={18} />}
        lines={sent}
      />
      <Outcome
        title={t("sending.notSentTo", { count: failed.length })}
        color="red"
        icon={<IconAlertCircle size={18} />}
        lines={failed.map(({ email, message }) => `${email}: ${message}`)}
      />
      <Outcome
        title={t("sending.skipped", { count: skipped.length })}
        color="gray"
        lines={skipped.map(({ email, reason }) => `${email}: ${reason}`)}
      />
      {sent.length + failed.length + skipped.length === 0 && <Text size="sm">{t("sending.nothingWasSent")}</Text>}
    </Stack>
  );
}
