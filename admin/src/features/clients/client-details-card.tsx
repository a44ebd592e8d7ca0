import { Button, Card, Group, SimpleGrid, Title } from "@mantine/core";
import { IconEdit } from "@tabler/icons-react";
import type { Client } from "./types";
import { formatDateTime } from "../../lib/format";
import { Field } from "../../ui/field";

/** The client's name, ID and dates, with the way to rename it. */
export function ClientDetailsCard({ client, onEdit }: { client: Client; onEdit: () => void }) {
  return (
    <Card withBorder shadow="xs" p="lg" radius="md">
      <Group position="apart" mb="md">
        <Title order={1} size="h2">
          {client.name}
        </Title>
        <Button variant="light" leftIcon={<IconEdit size={16} />} onClick={onEdit}>
          Edit Client
        </Button>
      </Group>
      <SimpleGrid cols={3} breakpoints={[{ maxWidth: "sm", cols: 1 }]}>
        <Field label="ID">{client.id}</Field>
        <Field label="Created">{formatDateTime(client.createdAt)}</Field>
        <Field label="Updated">{formatDateTime(client.updatedAt)}</Field>
      </SimpleGrid>
    </Card>
  );
}
