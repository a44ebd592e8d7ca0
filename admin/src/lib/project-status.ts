import type { Project } from "../../../api/types";

export const isPublished = (project: Pick<Project, "publishStatus">) => project.publishStatus === "published";

/** Publishing needs a draft (or a failed build) with at least one attachment. */
export const canPublish = (project: Pick<Project, "publishStatus" | "attachmentCount">) =>
  project.attachmentCount > 0 && (project.publishStatus === "draft" || project.publishStatus === "failed");
