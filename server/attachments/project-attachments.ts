import type { AppContext } from "../context";

/** The attachments of one project as the API shows them (with signed links), for GET /api/projects/{id}. */
export async function listProjectAttachments(_ctx: AppContext, _projectId: number): Promise<unknown[]> {
  return [];
}
