import { useState } from "react";
import { Badge, Button, Drawer, ScrollArea, Table, Text } from "@mantine/core";
import { useCustomMutation, useList } from "@refinedev/core";
import type { Webhook, WebhookAttempt } from "../../../../api/types";
import { formatDateTime } from "../../lib/format";
import { usePhone } from "../../lib/use-phone";
import { FailureAlert } from "../../ui/failure-alert";
import { t } from "../../i18n";

/** How often an open list asks again: the server announces no webhook changes on the live socket. */
const REFRESH_MS = 3000;

function StatusBadge({ attempt }: { attempt: WebhookAttempt }) {
  if (attempt.status === null)
    return (
      <Badge color="gray" variant="light">
        {t("webhooks.noAnswer")}
      </Badge>
    );
  return (
    <Badge color={attempt.ok ? "green" : "red"} variant="light">
      {attempt.status}
    </Badge>
  );
}

/** The last 100 sends to one endpoint, newest first, each with 'Send again'. */
export function AttemptsDrawer({ webhook, onClose }: { webhook: Webhook; onClose: () => void }) {
  const phone = usePhone();
  const resource = `webhooks/${webhook.id}/attempts`;
  const { result, query } = useList<WebhookAttempt>({
    resource,
    pagination: { mode: "off" },
    errorNotification: false,
    queryOptions: { refetchInterval: REFRESH_MS },
  });
  const { mutateAsync: send } = useCustomMutation();
  const [sending, setSending] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const attempts = result.data ?? [];

  const sendAgain = (attempt: WebhookAttempt) => {
    setFailure(null);
    setSending(attempt.id);
    send({
      url: `/${resource}/${attempt.id}/retry`,
      method: "post",
      values: {},
      successNotification: false,
      errorNotification: false,
    })
      .then(
        () => query.refetch(),
        (error: { message?: string }) => setFailure(error.message ?? t("webhooks.resendFailed")),
      )
      .finally(() => setSending(null));
  };

  return (
    <Drawer
      opened
      onClose={onClose}
      position="right"
      size={phone ? "100%" : 880}
      padding="md"
      title={<Text weight={600}>{t("webhooks.attempts")}</Text>}
      aria-label={t("webhooks.attempts")}
    >
      <Text size="sm" color="dimmed" mb="sm" sx={{ wordBreak: "break-all" }}>
        {webhook.url}
      </Text>
      {failure && <FailureAlert message={failure} mt={0} />}
      {query.isError ? (
        <FailureAlert message={t("webhooks.failedToLoadTheAttemptsPlease")} mt={0} />
      ) : attempts.length === 0 && !query.isLoading ? (
        <Text color="dimmed">{t("webhooks.nothingSentYet")}</Text>
      ) : (
        <ScrollArea sx={{ height: "calc(100dvh - 140px)" }} offsetScrollbars>
          <Table miw={720} verticalSpacing="xs" fontSize="sm" aria-label={t("webhooks.attempts")}>
            <thead>
              <tr>
                <th>{t("webhooks.time")}</th>
                <th>{t("webhooks.event")}</th>
                <th>{t("webhooks.status")}</th>
                <th>{t("webhooks.took")}</th>
                <th>{t("webhooks.answer")}</th>
                <th aria-label={t("webhooks.actions")} />
              </tr>
            </thead>
            <tbody>
              {attempts.map((attempt) => (
                <tr key={attempt.id}>
                  <td style={{ whiteSpace: "nowrap" }}>{formatDateTime(attempt.attemptedAt)}</td>
                  <td>
                    <Text ff="monospace" size="xs">
                      {attempt.eventType}
                    </Text>
                  </td>
                  <td>
                    <StatusBadge attempt={attempt} />
                  </td>
                  <td style={{ whiteSpace: "nowrap" }}>{t("webhooks.ms", { durationMs: attempt.durationMs })}</td>
                  <td>
                    <Text size="xs" lineClamp={2} sx={{ wordBreak: "break-all", maxWidth: 260 }}>
                      {attempt.response ?? ""}
                    </Text>
                  </td>
                  <td>
                    <Button
                      size="xs"
                      variant="light"
                      loading={sending === attempt.id}
                      onClick={() => sendAgain(attempt)}
                      aria-label={t("webhooks.sendAgainAt", {
                        eventType: attempt.eventType,
                        attemptedAt: formatDateTime(attempt.attemptedAt),
                      })}
                    >
                      {t("webhooks.sendAgain")}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        </ScrollArea>
      )}
    </Drawer>
  );
}
