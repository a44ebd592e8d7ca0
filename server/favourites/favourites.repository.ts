import type { Knex } from "knex";
import type { Db } from "../db/database";
import { toIso } from "../db/database";
import { lockedForUpdate } from "../db/transactions";
import type { FavouriteVisitor } from "../../api/favourites";

export interface VisitorRow {
  id: number;
  projectId: number;
  name: string;
  email: string;
  changedAt: string;
  submittedAt: string | null;
  /** The SHA-256 of the key the visitor's cookie holds. */
  keyHash: string;
}

const visitorColumns = ["id", "project_id", "name", "email", "changed_at", "submitted_at", "key_hash"];

function toVisitor(r: Record<string, unknown>): VisitorRow {
  return {
    id: Number(r.id),
    projectId: Number(r.project_id),
    name: String(r.name),
    email: String(r.email),
    changedAt: toIso(r.changed_at)!,
    submittedAt: toIso(r.submitted_at),
    keyHash: String(r.key_hash),
  };
}

/** Sent, and not changed since. */
export const isSent = (v: Pick<VisitorRow, "changedAt" | "submittedAt">) =>
  v.submittedAt !== null && v.submittedAt >= v.changedAt;

/** The visitor one of these key hashes names, made on this very link (`zipPath`) of this project. */
export async function findVisitor(
  db: Db,
  projectId: number,
  zipPath: string,
  keyHashes: string[],
): Promise<VisitorRow | undefined> {
  if (keyHashes.length === 0) return undefined;
  const row = await db("favourite_visitors")
    .where({ project_id: projectId, zip_path: zipPath })
    .whereIn("key_hash", keyHashes)
    .orderBy("id", "desc")
    .first(visitorColumns);
  return row ? toVisitor(row) : undefined;
}

export async function insertVisitor(
  db: Db,
  v: { projectId: number; keyHash: string; zipPath: string; name: string; email: string; at: string },
): Promise<void> {
  await db("favourite_visitors").insert({
    project_id: v.projectId,
    key_hash: v.keyHash,
    zip_path: v.zipPath,
    name: v.name,
    email: v.email,
    created_at: v.at,
    changed_at: v.at,
  });
}

export async function updateVisitorContact(db: Db, id: number, contact: { name: string; email: string }) {
  await db("favourite_visitors").where({ id }).update(contact);
}

export async function favouritesLimitOf(db: Db, projectId: number): Promise<number | null> {
  const row = await db("projects").where({ id: projectId }).first("favourites_limit");
  return row?.favourites_limit == null ? null : Number(row.favourites_limit);
}

/** The visitor's favourites: photo ids with their comments. */
export async function favouritesOf(
  db: Db,
  visitorId: number,
): Promise<Array<{ attachmentId: number; comment: string | null }>> {
  const rows = await db("favourites").where({ visitor_id: visitorId }).select("attachment_id", "comment");
  return rows.map((r) => ({ attachmentId: Number(r.attachment_id), comment: r.comment ?? null }));
}

export type PutOutcome =
  { done: true; changed: boolean; count: number; comment: string | null } | { done: false; count: number; gone?: true };

/**
 * Locks the photo's row, then the visitor's: the order a project's deletion takes them on
 * PostgreSQL (its photos, then its visitors), so the two never wait on each other (the other order
 * deadlocked, a 500 for one of them). A photo already deleted, or being deleted and then gone, is
 * reported as such; the deletion waits for the change to end. Answers whether both are there.
 */
async function lockPhotoAndVisitor(trx: Knex.Transaction, visitorId: number, attachmentId: number): Promise<boolean> {
  const photo = await lockedForUpdate(trx, trx("attachments").where({ id: attachmentId })).first("id");
  if (!photo) return false;
  const visitor = await lockedForUpdate(trx, trx("favourite_visitors").where({ id: visitorId })).first("id");
  return Boolean(visitor);
}

/** A foreign key refused the row: what it names was deleted meanwhile (sqlite's or PostgreSQL's code). */
const isForeignKeyFailure = (err: unknown) => {
  const { code, message } = err as { code?: string; message?: string };
  return code === "23503" || (code === "SQLITE_CONSTRAINT" && /FOREIGN KEY/i.test(message ?? ""));
};

/**
 * Puts a photo on the visitor's list (or changes its comment: `undefined` leaves it), unless the
 * list is already at `limit`. The visitor's row is locked (after the photo's), so two photos added
 * at once can never pass the limit together. A photo (or visitor) deleted before or while this runs is `gone`.
 */
export async function putFavourite(
  db: Db,
  f: { visitorId: number; attachmentId: number; comment: string | null | undefined; limit: number | null; at: string },
): Promise<PutOutcome> {
  const put = db.transaction(async (trx): Promise<PutOutcome> => {
    if (!(await lockPhotoAndVisitor(trx, f.visitorId, f.attachmentId))) return { done: false, count: 0, gone: true };
    const mine = { visitor_id: f.visitorId, attachment_id: f.attachmentId };
    const existing = await trx("favourites").where(mine).first("comment");
    const count = await countOf(trx, f.visitorId);
    if (existing) {
      const before: string | null = existing.comment ?? null;
      if (f.comment === undefined || f.comment === before)
        return { done: true, changed: false, count, comment: before };
      await trx("favourites").where(mine).update({ comment: f.comment });
      await trx("favourite_visitors").where({ id: f.visitorId }).update({ changed_at: f.at });
      return { done: true, changed: true, count, comment: f.comment };
    }
    if (f.limit !== null && count >= f.limit) return { done: false, count };
    await trx("favourites").insert({ ...mine, comment: f.comment ?? null, created_at: f.at });
    await trx("favourite_visitors").where({ id: f.visitorId }).update({ changed_at: f.at });
    return { done: true, changed: true, count: count + 1, comment: f.comment ?? null };
  });
  // The locks above leave no window for it; should one open, the answer is still the photo's 404.
  return put.catch((err: unknown) => {
    if (isForeignKeyFailure(err)) return { done: false, count: 0, gone: true };
    throw err;
  });
}

async function countOf(db: Db, visitorId: number): Promise<number> {
  const row = await db("favourites").where({ visitor_id: visitorId }).count({ n: "*" }).first();
  return Number(row?.n ?? 0);
}

/** Takes a photo off the list; answers how many remain and whether it was on it. */
export async function removeFavourite(
  db: Db,
  visitorId: number,
  attachmentId: number,
  at: string,
): Promise<{ count: number; changed: boolean }> {
  return db.transaction(async (trx) => {
    // In putFavourite's order (the photo, then the visitor): any other deadlocks PostgreSQL when both run at once.
    await lockPhotoAndVisitor(trx, visitorId, attachmentId);
    const removed = await trx("favourites").where({ visitor_id: visitorId, attachment_id: attachmentId }).delete();
    if (removed > 0) await trx("favourite_visitors").where({ id: visitorId }).update({ changed_at: at });
    return { count: await countOf(trx, visitorId), changed: removed > 0 };
  });
}

export async function markSubmitted(db: Db, visitorId: number, at: string): Promise<void> {
  await db("favourite_visitors").where({ id: visitorId }).update({ submitted_at: at });
}

export async function projectExists(db: Db, projectId: number): Promise<boolean> {
  return (await db("projects").where({ id: projectId }).first("id")) !== undefined;
}

const visitorsWithCounts = (db: Db) =>
  db("favourite_visitors as v")
    .leftJoin("favourites as f", "f.visitor_id", "v.id")
    .groupBy("v.id", "v.project_id", "v.name", "v.email", "v.created_at", "v.changed_at", "v.submitted_at")
    .select(
      "v.id",
      "v.project_id",
      "v.name",
      "v.email",
      "v.created_at",
      "v.changed_at",
      "v.submitted_at",
      db.raw("COUNT(f.attachment_id) AS picks"),
      db.raw("COUNT(f.comment) AS comments"),
    );

function toListed(r: Record<string, unknown>): FavouriteVisitor {
  const v = toVisitor(r);
  return {
    id: v.id,
    projectId: v.projectId,
    name: v.name,
    email: v.email,
    count: Number(r.picks),
    comments: Number(r.comments),
    createdAt: toIso(r.created_at)!,
    changedAt: v.changedAt,
    submittedAt: v.submittedAt,
    sent: isSent(v),
  };
}

/** A project's visitors with their counts, the latest change first. */
export async function listVisitors(db: Db, projectId: number): Promise<FavouriteVisitor[]> {
  const rows = await visitorsWithCounts(db)
    .where("v.project_id", projectId)
    .orderBy([
      { column: "v.changed_at", order: "desc" },
      { column: "v.id", order: "desc" },
    ]);
  return rows.map(toListed);
}

export async function findListedVisitor(
  db: Db,
  projectId: number,
  visitorId: number,
): Promise<FavouriteVisitor | undefined> {
  const row = await visitorsWithCounts(db).where({ "v.project_id": projectId, "v.id": visitorId }).first();
  return row ? toListed(row) : undefined;
}

/**
 * The order keys of the project's photo order, for a query joining projects as `p` and attachments
 * as `a` (a visitor's list is short: sorted without an index).
 */
const PICKS_ORDER = `CASE p.photo_order WHEN 'name' THEN a.name_key WHEN 'uploaded' THEN '' ELSE a.capture_key END`;

/** The photos on a visitor's list, in the delivery's order (the project's photo order, the ZIP's). */
export async function picksOf(
  db: Db,
  visitorId: number,
): Promise<Array<{ attachmentId: number; originalName: string; comment: string | null }>> {
  const rows = await db("favourites as f")
    .join("attachments as a", "a.id", "f.attachment_id")
    .join("projects as p", "p.id", "a.project_id")
    .where("f.visitor_id", visitorId)
    .orderByRaw(`${PICKS_ORDER}, a.created_at, a.id`)
    .select("a.id", "a.original_name", "f.comment");
  return rows.map((r) => ({
    attachmentId: Number(r.id),
    originalName: String(r.original_name),
    comment: r.comment ?? null,
  }));
}
