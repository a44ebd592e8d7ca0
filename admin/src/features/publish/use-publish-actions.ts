import { useCustomMutation, type HttpError } from "@refinedev/core";
import { useFailure } from "../../lib/failure";
import type { Project } from "../../../../api/types";
import { canPublish } from "../../lib/project-status";
import { t } from "../../i18n";

const FAILED = { publish: "publish.publishFailed", unpublish: "publish.unpublishFailed" } as const;

const failedTo = (what: keyof typeof FAILED) => (error?: HttpError) => ({
  type: "error" as const,
  message: t(FAILED[what]),
  description: error?.message,
});

/**
 * Publish and unpublish calls. A refusal (already published, no attachments, the server down) is
 * kept for the project page to show beneath its button (`inline`), or told by a notification where
 * the call came from a list. The live provider shows progress and brings the project's new status.
 */
export function usePublishActions({ inline = false }: { inline?: boolean } = {}) {
  const { mutate: startPublish, mutation: publishing } = useCustomMutation<Project>();
  const { mutate: startUnpublish, mutation: unpublishing } = useCustomMutation<Project>();
  const failure = useFailure();
  const onError = (error: HttpError) => failure.show(error);
  const notifyFailure = (what: keyof typeof FAILED) => (inline ? false : failedTo(what));

  /** `notifyRecipients`: once published, the recipients who have the link get a short mail. */
  const publish = (
    project: Pick<Project, "id" | "publishStatus" | "attachmentCount">,
    { notifyRecipients = false }: { notifyRecipients?: boolean } = {},
  ) => {
    if (!canPublish(project)) {
      console.error(
        project.attachmentCount > 0
          ? `Project ${project.id} is already published or publishing`
          : `Cannot publish project ${project.id}: it has no attachments`,
      );
      return;
    }
    failure.clear();
    startPublish(
      {
        url: `/projects/${project.id}/publish`,
        method: "post",
        values: notifyRecipients ? { notifyRecipients: true } : {},
        successNotification: { type: "success", message: t("publish.started") },
        errorNotification: notifyFailure("publish"),
      },
      { onError },
    );
  };

  const unpublish = (projectId: number) => {
    failure.clear();
    startUnpublish(
      {
        url: `/projects/${projectId}/publish`,
        method: "delete",
        values: {},
        successNotification: { type: "success", message: t("publish.unpublished") },
        errorNotification: notifyFailure("unpublish"),
      },
      { onError },
    );
  };

  return {
    publish,
    unpublish,
    failure: failure.message,
    publishPending: publishing.isPending,
    unpublishPending: unpublishing.isPending,
  };
}
