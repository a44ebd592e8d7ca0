import { useList } from "@refinedev/core";
import type { Project } from "./types";

/**
 * A project as its page shows it, read from the list endpoint filtered by its id: the same fields
 * as GET /api/projects/{id} without the attachments embedded there (the page loads its photos a
 * page at a time). The page refetches it on every live change of the project, such as each photo
 * uploaded, so it stays a few hundred bytes whatever the project holds.
 */
export function useProjectRecord(projectId: number | undefined) {
  const { result, query } = useList<Project>({
    resource: "projects",
    filters: [{ field: "id", operator: "eq", value: projectId }],
    pagination: { mode: "off" },
    queryOptions: { enabled: projectId !== undefined },
    errorNotification: false,
  });
  return {
    project: result.data[0] as Project | undefined,
    loading: query.isLoading,
    failed: query.isError,
    notFound: query.isSuccess && result.data.length === 0,
    refetch: () => void query.refetch(),
  };
}
