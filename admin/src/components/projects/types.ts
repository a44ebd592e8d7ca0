/** The API's shapes (contract section 3) as the project and attachment screens use them. */
export type PublishStatus = "draft" | "publishing" | "published" | "failed";

export interface Attachment {
  id: number;
  projectId: number;
  originalName: string;
  mimeType: string;
  size: number;
  width: number | null;
  height: number | null;
  createdAt: string;
  updatedAt: string;
  viewUrl: string;
  downloadUrl: string;
  thumbnailUrl: string | null;
}

export interface Project {
  id: number;
  name: string;
  description: string | null;
  clientId: number | null;
  client: { id: number; name: string } | null;
  publishStatus: PublishStatus;
  publishedAt: string | null;
  publishedZipPath: string | null;
  downloadUrl: string | null;
  /** Why the last build failed, while publishStatus is `failed`. */
  publishError?: string | null;
  attachmentCount: number;
  totalFileSize: number;
  createdAt: string;
  updatedAt: string;
  attachments?: Attachment[];
}

export const isPublished = (project: Pick<Project, "publishStatus">) => project.publishStatus === "published";

/** Publishing needs a draft (or a failed build) with at least one attachment. */
export const canPublish = (project: Pick<Project, "publishStatus" | "attachmentCount">) =>
  project.attachmentCount > 0 && (project.publishStatus === "draft" || project.publishStatus === "failed");
