export type { Attachment, PhotoOrder, Project, ProjectWithAttachments, PublishStatus } from "../../../../api/types";
export { canPublish, isPublished } from "../../lib/project-status";
