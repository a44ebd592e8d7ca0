import { useCustomMutation } from "@refinedev/core";
import type { Project } from "../../../../api/types";
import { canPublish } from "../../lib/project-status";

/**
 * Publish and unpublish calls; failures are only logged (spec section 8). The live provider shows
 * progress and brings the project's new status (the server announces it).
 */
export function usePublishActions() {
  const { mutate: startPublish, mutation: publishing } = useCustomMutation<Project>();
  const { mutate: startUnpublish, mutation: unpublishing } = useCustomMutation<Project>();

  const publish = (project: Pick<Project, "id" | "publishStatus" | "attachmentCount">) => {
    if (!canPublish(project)) {
      console.error(
        project.attachmentCount > 0
          ? `Project ${project.id} is already published or publishing`
          : `Cannot publish project ${project.id}: it has no attachments`,
      );
      return;
    }
    startPublish(
      {
        url: `/projects/${project.id}/publish`,
        method: "post",
        values: {},
        successNotification: false,
        errorNotification: false,
      },
      {
        onError: (error) => console.error("Failed to publish the project:", error.message),
      },
    );
  };

  const unpublish = (projectId: number) =>
    startUnpublish(
      {
        url: `/projects/${projectId}/publish`,
        method: "delete",
        values: {},
        successNotification: false,
        errorNotification: false,
      },
      {
        onError: (error) => console.error("Failed to unpublish the project:", error.message),
      },
    );

  return { publish, unpublish, publishPending: publishing.isPending, unpublishPending: unpublishing.isPending };
}
