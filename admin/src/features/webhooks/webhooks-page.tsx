import { useState } from "react";
import { Button, Group, ScrollArea, Stack, Table, Text, Title } from "@mantine/core";
import { useList } from "@refinedev/core";
import { IconPlus, IconWebhook } from "@tabler/icons-react";
import type { Webhook } from "../../../../api/types";
import { usePhone } from "../../lib/use-phone";
import { FailureAlert } from "../../ui/failure-alert";
import { AttemptsDrawer } from "./attempts-drawer";
import { WebhookDialog } from "./webhook-dialog";
import { WebhookCard, WebhookRow, type Opened } from "./webhook-row";
import { t } from "../../i18n";

/** /webhooks (admins): the endpoints that hear about the studio's events, signed. */
export function WebhooksPage() {
  const phone = usePhone();
  const [opened, setOpened] = useState<Opened>(null);
  const { result, query } = useList<Webhook>({
    resource: "webhooks",
    pagination: { mode: "off" },
    errorNotification: false,
  });
  const webhooks = result.data ?? [];
  const close = () => setOpened(null);

  return (
    <Stack spacing="md" maw={1200}>
      <Group position="apart">
        <Title order={1} size="h2">
          {t("webhooks.webhooks")}
        </Title>
        <Button leftIcon={<IconPlus size={18} />} onClick={() => setOpened({ dialog: "new" })}>
          {t("webhooks.newWebhook")}
        </Button>
      </Group>
      <Text color="dimmed">{t("webhooks.intro")}</Text>
      {query.isError ? (
        <FailureAlert message={t("webhooks.failedToLoadTheWebhooksPlease")} mt={0} />
      ) : webhooks.length === 0 && !query.isLoading ? (
        <Group spacing="xs" c="dimmed">
          <IconWebhook size={18} />
          <Text>{t("webhooks.noWebhooksYet")}</Text>
        </Group>
      ) : phone ? (
        <Stack role="list" aria-label={t("webhooks.webhooks")} spacing="sm">
          {webhooks.map((webhook) => (
            <WebhookCard key={webhook.id} webhook={webhook} open={setOpened} />
          ))}
        </Stack>
      ) : (
        <ScrollArea>
          <Table miw={980} verticalSpacing="sm" aria-label={t("webhooks.webhooks")}>
            <thead>
              <tr>
                <th>{t("webhooks.url")}</th>
                <th>{t("webhooks.events")}</th>
                <th>{t("webhooks.description")}</th>
                <th>{t("webhooks.state")}</th>
                <th aria-label={t("webhooks.actions")} />
              </tr>
            </thead>
            <tbody>
              {webhooks.map((webhook) => (
                <WebhookRow key={webhook.id} webhook={webhook} open={setOpened} />
              ))}
            </tbody>
          </Table>
        </ScrollArea>
      )}
      {opened?.dialog === "new" && <WebhookDialog onClose={close} />}
      {opened?.dialog === "edit" && <WebhookDialog webhook={opened.webhook} onClose={close} />}
      {opened?.dialog === "attempts" && <AttemptsDrawer webhook={opened.webhook} onClose={close} />}
    </Stack>
  );
}
