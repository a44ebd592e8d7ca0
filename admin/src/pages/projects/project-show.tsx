import { Alert, Text, Title } from "@mantine/core";
import { useShow } from "@refinedev/core";
import { Show } from "@refinedev/mantine";

interface ProjectRecord {
  id: number;
  name: string;
}

export function ProjectShow() {
  const { query, result: project } = useShow<ProjectRecord>({ resource: "projects" });
  if (query.isError) {
    return (
      <Alert color="red" title="Error loading project">
        Project not found or failed to load.
      </Alert>
    );
  }
  return (
    <Show title={<Title order={3}>{project?.name ?? "Project"}</Title>} isLoading={query.isLoading}>
      <Text color="dimmed">Project details are on their way.</Text>
    </Show>
  );
}
