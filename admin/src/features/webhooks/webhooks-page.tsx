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
          Webhooks
        </Title>
        <Button leftIcon={<IconPlus size={18} />} onClick={() => setOpened({ dialog: "new" })}>
          New webhook
        </Button>
      </Group>
      <Text color="dimmed">
        Photodrop tells these addresses when something happens, signed with each one&apos;s secret, so n8n, Zapier or
        your own server can act on it.
      </Text>
      {query.isError ? (
        <FailureAlert message="Failed to load the webhooks. Please try again later." mt={0} />
      ) : webhooks.length === 0 && !query.isLoading ? (
        <Group spacing="xs" c="dimmed">
          <IconWebhook size={18} />
          <Text>No webhooks yet.</Text>
        </Group>
      ) : phone ? (
        <Stack role="list" aria-label="Webhooks" spacing="sm">
          {webhooks.map((webhook) => (
            <WebhookCard key={webhook.id} webhook={webhook} open={setOpened} />
          ))}
        </Stack>
      ) : (
        <ScrollArea>
          <Table miw={980} verticalSpacing="sm" aria-label="Webhooks">
            <thead>
              <tr>
                <th>URL</th>
                <th>Events</th>
                <th>Description</th>
                <th>State</th>
                <th aria-label="Actions" />
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
