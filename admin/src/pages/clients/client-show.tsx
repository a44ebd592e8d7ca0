import { Alert, Text, Title } from "@mantine/core";
import { useShow } from "@refinedev/core";
import { Show } from "@refinedev/mantine";

interface ClientRecord {
  id: number;
  name: string;
}

export function ClientShow() {
  const { query, result: client } = useShow<ClientRecord>({ resource: "clients" });
  if (query.isError) {
    return (
      <Alert color="red" title="Error loading client">
        Client not found or failed to load.
      </Alert>
    );
  }
  return (
    <Show title={<Title order={3}>{client?.name ?? "Client"}</Title>} isLoading={query.isLoading}>
      <Text color="dimmed">Client details are on their way.</Text>
    </Show>
  );
}
