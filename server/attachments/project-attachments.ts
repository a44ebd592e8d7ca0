import type { AppContext } from "../context";
import type { Attachment } from "../../api/types";
import { listProjectAttachmentsOf } from "./attachments.service";

/** The attachments of one project as the API shows them (with signed links), for GET /api/projects/{id}. */
export async function listProjectAttachments(ctx: AppContext, projectId: number): Promise<Attachment[]> {
  return listProjectAttachmentsOf(ctx, projectId);
}
