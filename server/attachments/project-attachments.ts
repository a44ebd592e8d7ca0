import type { AppContext } from "../context";
import { listProjectAttachmentsOf, type Attachment } from "./attachments.service";

/** The attachments of one project as the API shows them (with signed links), for GET /api/projects/{id}. */
export async function listProjectAttachments(ctx: AppContext, projectId: number): Promise<Attachment[]> {
  return listProjectAttachmentsOf(ctx, projectId);
}
