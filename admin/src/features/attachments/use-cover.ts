import { useCustomMutation, useInvalidate } from "@refinedev/core";
import type { Project } from "../../../../api/types";
import { t } from "../../i18n";

/** PUT /projects/:id/cover: the photo across the top of the client's delivery page; the project is refetched after. */
export function useCover(projectId: number) {
  const invalidate = useInvalidate();
  const { mutate, mutation } = useCustomMutation<Project>();
  return {
    setCover: (attachmentId: number | null) =>
      mutate(
        {
          url: `/projects/${projectId}/cover`,
          method: "put",
          values: { attachmentId },
          // The button turning to 'Cover photo' says so; a toast would cover the lightbox's toolbar.
          successNotification: false,
          errorNotification: { type: "error", message: t("attachments.coverFailed") },
        },
        {
          // The project page reads its project from the list endpoint (by id), other views from the detail.
          onSettled: () => void invalidate({ resource: "projects", invalidates: ["list", "detail"], id: projectId }),
        },
      ),
    saving: mutation.isPending,
  };
}
