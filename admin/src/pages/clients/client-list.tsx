import { List } from "@refinedev/mantine";
import { Text } from "@mantine/core";

export function ClientList() {
  return (
    <List title="All Clients">
      <Text color="dimmed">The client list is on its way.</Text>
    </List>
  );
}
