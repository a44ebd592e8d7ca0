import path from "node:path";
import type { Db } from "../db/database";

/** Every file a database lists, as paths inside a backup folder: attachments, thumbnails, previews and, if asked, published ZIPs. */
export async function filesListedBy(db: Db, withZips: boolean): Promise<string[]> {
  const rows = (await db("attachments").select("storage_key", "thumbnail_key", "preview_key")) as Array<{
    storage_key: string;
    thumbnail_key: string | null;
    preview_key: string | null;
  }>;
  const files = rows.flatMap((r) =>
    [r.storage_key, r.thumbnail_key, r.preview_key].filter((k): k is string => Boolean(k)).map((k) => `uploads/${k}`),
  );
  if (withZips) {
    const zips = (await db("projects")
      .where({ publish_status: "published" })
      .whereNotNull("published_zip_path")
      .pluck("published_zip_path")) as string[];
    files.push(...zips.map((p) => `published/${path.basename(p)}`));
  }
  return [...new Set(files)];
}

/** The newest migration the database has run. */
export async function schemaVersion(db: Db): Promise<string> {
  const row = (await db("knex_migrations").max({ v: "name" }).first()) as { v?: string | null } | undefined;
  return row?.v ?? "";
}

/**
 * For a backup's own copy only: published projects become `failed` with `reason`, so they can be
 * published again. They keep their link's token (published_zip_path), as an unpublished project
 * does: the client's link says the gallery is being updated and the next publish answers at it.
 */
export async function forgetZips(db: Db, reason: string): Promise<void> {
  await db("projects").where({ publish_status: "published" }).update({
    publish_status: "failed",
    published_zip_size: null,
    published_at: null,
    publish_error: reason,
  });
}
