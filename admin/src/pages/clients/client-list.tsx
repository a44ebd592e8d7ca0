import { List } from "@refinedev/mantine";
import { Text, Title } from "@mantine/core";

export function ClientList() {
  return (
    <List title={<Title order={3}>All Clients</Title>}>
      <Text color="dimmed">The client list is on its way.</Text>
    </List>
  );
}
