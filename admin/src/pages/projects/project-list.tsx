import { List } from "@refinedev/mantine";
import { Text } from "@mantine/core";

export function ProjectList() {
  return (
    <List title="All Projects">
      <Text color="dimmed">The project list is on its way.</Text>
    </List>
  );
}
