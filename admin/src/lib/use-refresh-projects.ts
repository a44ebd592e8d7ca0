import { useCallback } from "react";
import { useInvalidate } from "@refinedev/core";
import { useQueryClient } from "@tanstack/react-query";

const isDashboardStats = (key: readonly unknown[]) =>
  key.some((part) => typeof part === "object" && part !== null && (part as { url?: unknown }).url === "/dashboard/stats");

/** Refetches what a project, attachment or publish change can alter: projects, attachments, client counts, dashboard totals. */
export function useRefreshProjects() {
  const invalidate = useInvalidate();
  const queryClient = useQueryClient();
  return useCallback(
    (projectId?: number) => {
      void invalidate({ resource: "projects", invalidates: ["list", "many", "detail"], id: projectId });
      void invalidate({ resource: "attachments", invalidates: ["list", "many"] });
      void invalidate({ resource: "clients", invalidates: ["list", "detail"] });
      void queryClient.invalidateQueries({ predicate: (query) => isDashboardStats(query.queryKey) });
    },
    [invalidate, queryClient],
  );
}
