import type { Db } from "../db/database";
import { toIso } from "../db/database";
import type { SelectionNotice } from "../../api/types";

/** How many received selections the bell lists. */
export const SELECTION_NOTICES = 20;

/**
 * The selections clients sent, the latest first: who sent how many photos for which project. A
 * visitor who sent again counts once, at the last send.
 */
export async function recentSelections(db: Db, limit = SELECTION_NOTICES): Promise<SelectionNotice[]> {
  const rows = (await db("favourite_visitors as v")
    .join("projects as p", "p.id", "v.project_id")
    .whereNotNull("v.submitted_at")
    .orderBy([
      { column: "v.submitted_at", order: "desc" },
      { column: "v.id", order: "desc" },
    ])
    .limit(limit)
    .select(
      "v.id",
      "v.project_id",
      "p.name as project_name",
      "v.name",
      "v.submitted_at",
      db("favourites as f").whereRaw("f.visitor_id = v.id").count("*").as("photo_count"),
    )) as Array<Record<string, unknown>>;
  return rows.map((r) => ({
    visitorId: Number(r.id),
    projectId: Number(r.project_id),
    projectName: String(r.project_name),
    visitorName: String(r.name),
    photoCount: Number(r.photo_count),
    sentAt: toIso(r.submitted_at) ?? "",
  }));
}
