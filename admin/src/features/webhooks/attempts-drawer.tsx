import { useState } from "react";
import { Drawer, ScrollArea, Text } from "@mantine/core";
import { useCustomMutation, useList } from "@refinedev/core";
import type { Webhook, WebhookAttempt } from "../../../../api/types";
import { usePhone } from "../../lib/use-phone";
import { FailureAlert } from "../../ui/failure-alert";
import { AttemptCards, AttemptTable } from "./attempt-list";
import { t } from "../../i18n";

/** How often an open list asks again: the server announces no webhook changes on the live socket. */
const REFRESH_MS = 3000;

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
      closeButtonLabel={t("ui.close")}
      styles={{
        drawer: { display: "flex", flexDirection: "column" },
        body: { flex: 1, minHeight: 0, display: "flex", flexDirection: "column" },
      }}
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
        // The list takes the drawer's height left under the address, however many lines that takes.
        <ScrollArea sx={{ flex: 1, minHeight: 0 }} offsetScrollbars>
          {phone ? (
            <AttemptCards attempts={attempts} sending={sending} sendAgain={sendAgain} />
          ) : (
            <AttemptTable attempts={attempts} sending={sending} sendAgain={sendAgain} />
          )}
        </ScrollArea>
      )}
    </Drawer>
  );
}
