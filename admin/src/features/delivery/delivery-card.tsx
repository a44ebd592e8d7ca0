import { useState } from "react";
import { Badge, Card, Divider, Group, Stack, Text, Title } from "@mantine/core";
import type { Project } from "../../../../api/types";
import { formatDateTime } from "../../lib/format";
import { DeliveryFigures } from "./delivery-figures";
import { DeliverySettingsForm } from "./delivery-settings-form";
import { RegenerateLinkButton } from "./regenerate-link-button";
import { useDeliveryActions } from "./use-delivery-actions";

function LinkState({ project }: { project: Project }) {
  const { expiresAt, hasPasscode } = project.delivery;
  // Read once per mount: the badge is a hint, the server decides what has expired.
  const [now] = useState(() => Date.now());
  const expired = expiresAt !== null && new Date(expiresAt).getTime() <= now;
  return (
    <Group spacing={6}>
      {project.deliveryUrl ? (
        <Badge color={expired ? "red" : "green"}>{expired ? "Expired" : "Live"}</Badge>
      ) : (
        <Badge color="gray">Not published</Badge>
      )}
      {hasPasscode && <Badge color="violet">Passcode</Badge>}
      {expiresAt && !expired && <Badge color="blue">Expires {formatDateTime(expiresAt)}</Badge>}
    </Group>
  );
}

/** The client's delivery page: its link, its settings and what the client did with it. */
export function DeliveryCard({ project }: { project: Project }) {
  const actions = useDeliveryActions(project.id);
  return (
    <Card withBorder shadow="xs" radius="md" p="lg" mt="md" aria-label="Delivery">
      <Group position="apart" mb="md">
        <Title order={4}>Delivery</Title>
        <LinkState project={project} />
      </Group>
      <Stack spacing="md">
        {project.deliveryUrl ? (
          <Text size="sm" sx={{ fontFamily: "monospace", overflowWrap: "anywhere" }} aria-label="Delivery page link">
            {new URL(project.deliveryUrl, window.location.origin).toString()}
          </Text>
        ) : (
          <Text size="sm" color="dimmed">
            Publish the project to give your client a delivery page.
          </Text>
        )}
        <DeliveryFigures delivery={project.delivery} />
        <Divider />
        <DeliverySettingsForm
          key={`${project.delivery.expiresAt}|${project.delivery.hasPasscode}`}
          project={project}
          saving={actions.saving}
          onSave={actions.saveSettings}
        />
        {project.deliveryUrl && (
          <Group>
            <RegenerateLinkButton pending={actions.regenerating} onConfirm={actions.regenerateLink} />
          </Group>
        )}
      </Stack>
    </Card>
  );
}
