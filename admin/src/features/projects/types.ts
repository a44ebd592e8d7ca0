export type { Attachment, Project, PublishStatus } from "../../../../api/types";
export { canPublish, isPublished } from "../../lib/project-status";
