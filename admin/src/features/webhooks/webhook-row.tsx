import { Badge, Button, Group, Paper, Stack, Text, Tooltip } from "@mantine/core";
import { useCustomMutation, useNotification } from "@refinedev/core";
import type { Webhook } from "../../../../api/types";
import { ConfirmDeleteButton } from "../../ui/confirm-button";
import { t } from "../../i18n";

/** Which dialog or drawer the Webhooks page shows. */
export type Opened = { dialog: "new" } | { dialog: "edit" | "attempts"; webhook: Webhook } | null;

function StateBadge({ webhook }: { webhook: Webhook }) {
  if (webhook.active) return <Badge color="green">{t("webhooks.active")}</Badge>;
  return (
    <Tooltip label={t("webhooks.turnedOffByHandOrBy")} withinPortal multiline width={220}>
      <Badge color="gray" tabIndex={0}>
        {t("webhooks.off")}
      </Badge>
    </Tooltip>
  );
}

function EventBadges({ webhook }: { webhook: Webhook }) {
  return (
    <Group spacing={4}>
      {webhook.events.map((event) => (
        <Badge key={event} variant="outline" radius="sm" sx={{ textTransform: "none" }}>
          {event}
        </Badge>
      ))}
    </Group>
  );
}

/** Edit, 'Send test event', Attempts and Delete: the same in a table row and on a phone's card. */
function WebhookActions({ webhook, open, wrap }: { webhook: Webhook; open: (opened: Opened) => void; wrap: boolean }) {
  const { mutateAsync: send, mutation: sending } = useCustomMutation();
  const { open: notify } = useNotification();
  const sendTest = () =>
    send({
      url: `/webhooks/${webhook.id}/test`,
      method: "post",
      values: {},
      successNotification: false,
      errorNotification: false,
    }).then(
      () => notify?.({ type: "success", message: t("webhooks.testSent"), description: t("webhooks.seeAttempts") }),
      (error: { message?: string }) =>
        notify?.({ type: "error", message: t("webhooks.testNotSent"), description: error.message }),
    );

  return (
    <Group spacing="xs" noWrap={!wrap} position={wrap ? "right" : "left"}>
      <Button size="sm" variant="subtle" onClick={() => open({ dialog: "edit", webhook })}>
        {t("webhooks.edit")}
      </Button>
      <Button size="sm" variant="light" loading={sending.isPending} disabled={!webhook.active} onClick={sendTest}>
        {t("webhooks.sendTestEvent")}
      </Button>
      <Button size="sm" variant="subtle" onClick={() => open({ dialog: "attempts", webhook })}>
        {t("webhooks.attempts")}
      </Button>
      <ConfirmDeleteButton
        resource="webhooks"
        id={webhook.id}
        label={t("webhooks.delete")}
        title={t("webhooks.deleteThisWebhook")}
        confirmLabel={t("webhooks.deleteWebhook")}
      >
        <Text size="sm" mb="md" sx={{ wordBreak: "break-all" }}>
          {t("webhooks.hearsNothingMoreFromPhotodrop", { url: webhook.url })}
        </Text>
      </ConfirmDeleteButton>
    </Group>
  );
}

export function WebhookRow({ webhook, open }: { webhook: Webhook; open: (opened: Opened) => void }) {
  return (
    <tr>
      <td>
        <Text size="sm" sx={{ wordBreak: "break-all", maxWidth: 280 }}>
          {webhook.url}
        </Text>
      </td>
      <td style={{ maxWidth: 260 }}>
        <EventBadges webhook={webhook} />
      </td>
      <td>
        <Text size="sm" lineClamp={2} maw={200}>
          {webhook.description ?? ""}
        </Text>
      </td>
      <td>
        <StateBadge webhook={webhook} />
      </td>
      <td>
        <WebhookActions webhook={webhook} open={open} wrap={false} />
      </td>
    </tr>
  );
}

/** A phone's card: every action within reach, nothing to scroll sideways. */
export function WebhookCard({ webhook, open }: { webhook: Webhook; open: (opened: Opened) => void }) {
  return (
    <Paper role="listitem" withBorder radius="md" p="sm">
      <Stack spacing={8}>
        <Group position="apart" noWrap align="flex-start">
          <Text size="sm" weight={600} sx={{ wordBreak: "break-all" }}>
            {webhook.url}
          </Text>
          <StateBadge webhook={webhook} />
        </Group>
        <EventBadges webhook={webhook} />
        {webhook.description && (
          <Text size="sm" color="dimmed">
            {webhook.description}
          </Text>
        )}
        <WebhookActions webhook={webhook} open={open} wrap />
      </Stack>
    </Paper>
  );
}
