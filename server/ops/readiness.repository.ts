import type { Db } from "../db/database";

/** The cheapest query every database answers. */
export async function pingDatabase(db: Db): Promise<void> {
  await db.raw("select 1");
}
