import { useList } from "@refinedev/core";
import type { DeliveryActivity, Project } from "../../../../api/types";

/** Unpublished (or a failed build since): the project keeps the link it was published under. */
const wasPublishedBefore = (project: Pick<Project, "publishStatus" | "publishedZipPath">) =>
  project.publishStatus !== "published" && project.publishStatus !== "publishing" && project.publishedZipPath !== null;

/** Entries looked at: far more than a project's sends between two regenerations. */
const LOOK_BACK = 200;

/**
 * Whether anyone was mailed the link the project keeps: a 'sent' entry since the latest 'Regenerate
 * link' (its mails' links ended then). Asked only of a project published before and not now.
 */
export function useLinkRecipients(project: Project): boolean {
  const enabled = wasPublishedBefore(project);
  const { result } = useList<DeliveryActivity>({
    resource: `projects/${project.id}/activity`,
    pagination: { currentPage: 1, pageSize: LOOK_BACK },
    liveMode: "off",
    errorNotification: false,
    queryOptions: { enabled, staleTime: 0 },
  });
  if (!enabled) return false;
  for (const entry of result.data ?? []) {
    if (entry.type === "link_regenerated") return false;
    if (entry.type === "sent" && entry.recipients.length > 0) return true;
  }
  return false;
}
