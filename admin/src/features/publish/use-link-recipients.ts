import { useCustom } from "@refinedev/core";
import type { Project, SendingDraft } from "../../../../api/types";

/** Unpublished (or a failed build since): the project keeps the link it was published under. */
const wasPublishedBefore = (project: Pick<Project, "publishStatus" | "publishedZipPath">) =>
  project.publishStatus !== "published" && project.publishStatus !== "publishing" && project.publishedZipPath !== null;

/**
 * Whether anyone was mailed the link the project keeps (since its latest 'Regenerate link', whose
 * mails' links ended then), as the server counts them. Asked only of a project published before and not now.
 */
export function useLinkRecipients(project: Project): boolean {
  const enabled = wasPublishedBefore(project);
  const { result } = useCustom<SendingDraft>({
    url: `/projects/${project.id}/sending`,
    method: "get",
    errorNotification: false,
    queryOptions: { enabled, staleTime: 0 },
  });
  return enabled && (result?.data?.linkHolders ?? 0) > 0;
}
