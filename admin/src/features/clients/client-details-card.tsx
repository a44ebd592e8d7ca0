import { Button, Card, Group, SimpleGrid, Title } from "@mantine/core";
import { IconEdit } from "@tabler/icons-react";
import type { Client } from "./types";
import { formatDateTime } from "../../lib/format";
import { Field } from "../../ui/field";
import { t } from "../../i18n";

interface ClientDetailsCardProps {
  client: Client;
  onEdit: () => void;
  /** False on a phone, where the ID and dates come last (ClientFactsCard) so the contacts come first. */
  withFacts: boolean;
}

/** The client's name, ID and dates, with the way to rename it. */
export function ClientDetailsCard({ client, onEdit, withFacts }: ClientDetailsCardProps) {
  return (
    <Card withBorder shadow="xs" p="lg" radius="md">
      <Group position="apart" mb={withFacts ? "md" : 0}>
        <Title order={1} size="h2">
          {client.name}
        </Title>
        <Button variant="light" leftIcon={<IconEdit size={16} />} onClick={onEdit}>
          {t("clients.editClient")}
        </Button>
      </Group>
      {withFacts && <ClientFacts client={client} />}
    </Card>
  );
}

/** The client's ID and dates on their own, below everything else on a phone. */
export function ClientFactsCard({ client }: { client: Client }) {
  return (
    <Card withBorder shadow="xs" p="lg" radius="md">
      <ClientFacts client={client} />
    </Card>
  );
}

function ClientFacts({ client }: { client: Client }) {
  return (
    <SimpleGrid cols={3} breakpoints={[{ maxWidth: "sm", cols: 1 }]}>
      <Field label={t("clients.id")}>{client.id}</Field>
      <Field label={t("clients.created")}>{formatDateTime(client.createdAt)}</Field>
      <Field label={t("clients.updated")}>{formatDateTime(client.updatedAt)}</Field>
    </SimpleGrid>
  );
}
