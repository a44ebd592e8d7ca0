export type { Attachment, Project, ProjectWithAttachments, PublishStatus } from "../../../../api/types";
export { canPublish, isPublished } from "../../lib/project-status";
