import { useCustomMutation, useInvalidate } from "@refinedev/core";
import type { Project } from "../../../../api/types";

export interface DeliverySettingsChange {
  expiresAt?: string | null;
  passcode?: string | null;
}

/** PUT /projects/:id/delivery and POST /projects/:id/delivery/regenerate; the project is refetched after each. */
export function useDeliveryActions(projectId: number) {
  const invalidate = useInvalidate();
  const { mutateAsync: save, mutation: saving } = useCustomMutation<Project>();
  const { mutateAsync: regenerate, mutation: regenerating } = useCustomMutation<Project>();
  const refetch = () => invalidate({ resource: "projects", invalidates: ["detail"], id: projectId });
  const quiet = { successNotification: false as const, errorNotification: false as const };

  return {
    saveSettings: (values: DeliverySettingsChange) =>
      save({ url: `/projects/${projectId}/delivery`, method: "put", values, ...quiet }).finally(refetch),
    regenerateLink: () =>
      regenerate({ url: `/projects/${projectId}/delivery/regenerate`, method: "post", values: {}, ...quiet }).finally(
        refetch,
      ),
    saving: saving.isPending,
    regenerating: regenerating.isPending,
  };
}
