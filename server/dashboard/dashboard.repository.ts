import type { Db } from "../db/database";
import { readListTotals } from "../db/list-totals";

/** The dashboard's counts and bytes, all kept by triggers in list_totals: no table is counted or summed. */
export async function storedTotals(db: Db) {
  const totals = await readListTotals(db);
  const total = (name: string) => totals.get(name)?.total ?? 0;
  return {
    clientCount: total("clients"),
    projectCount: total("projects"),
    attachmentCount: total("attachments"),
    totalFileSize: total("attachments.size"),
    zipsBytes: total("projects.published_zip_size"),
  };
}

/** Published projects whose ZIP size was never recorded (published before the size was kept). */
export async function publishedWithoutZipSize(db: Db): Promise<Array<{ id: number; zipPath: string }>> {
  const rows = await db("projects")
    .where({ publish_status: "published" })
    .whereNull("published_zip_size")
    .whereNotNull("published_zip_path")
    .select("id", "published_zip_path");
  return rows.map((r) => ({ id: Number(r.id), zipPath: String(r.published_zip_path) }));
}

/** Records a ZIP's size, unless the project no longer has that ZIP. */
export async function recordZipSize(db: Db, id: number, zipPath: string, size: number): Promise<void> {
  await db("projects").where({ id, published_zip_path: zipPath }).whereNull("published_zip_size").update({
    published_zip_size: size,
  });
}
