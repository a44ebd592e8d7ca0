import { List } from "@refinedev/mantine";
import { Text, Title } from "@mantine/core";

export function ProjectList() {
  return (
    <List title={<Title order={3}>All Projects</Title>}>
      <Text color="dimmed">The project list is on its way.</Text>
    </List>
  );
}
