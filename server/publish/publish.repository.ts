import type { Db } from "../db/database";
import { nowIso } from "../db/database";
import { isPostgres } from "../db/transactions";
import type { PublishStatus } from "../../api/types";
import { webSizeZipName } from "../storage/paths";
import { publishedZipKey } from "../storage/published-zips";
import { projectPhotoOrder } from "../attachments/attachments.repository";
import { DEFAULT_PHOTO_ORDER, photoOrderColumns } from "../attachments/photo-order";
import { recordWebhookEvent } from "../webhooks/outbox";

export interface PublishState {
  id: number;
  name: string;
  publishStatus: PublishStatus;
  publishedZipPath: string | null;
}

/** What the ZIP build needs of one attachment. */
export interface PublishableAttachment {
  id: number;
  originalName: string;
  storageKey: string;
  mimeType: string;
  size: number;
  createdAt: string;
  /** Its preview's storage key, null while not rendered: what the web-size ZIP holds. */
  previewKey: string | null;
}

export async function findPublishState(db: Db, id: number): Promise<PublishState | undefined> {
  const row = await db("projects").where({ id }).first("id", "name", "publish_status", "published_zip_path");
  return (
    row && { id: row.id, name: row.name, publishStatus: row.publish_status, publishedZipPath: row.published_zip_path }
  );
}

/**
 * Moves a draft or failed project with at least one attachment to `publishing` in one
 * statement, so of two simultaneous calls exactly one gets `true`. The row then names
 * `buildId` as the only build allowed to record a result.
 */
export async function claimForPublishing(db: Db, id: number, buildId: string, leaseUntil: string): Promise<boolean> {
  const count = await db("projects")
    .where({ id })
    .whereIn("publish_status", ["draft", "failed"])
    .whereExists(db("attachments").select(db.raw("1")).where("project_id", db.ref("projects.id")))
    .update({
      publish_status: "publishing",
      publish_build_id: buildId,
      publish_lease_expires_at: leaseUntil,
      publish_file: null,
      publish_error: null,
      updated_at: nowIso(),
    });
  return count === 1;
}

/** Extends the build's lease; `false` when the build is no longer the project's current one (its lease was lost). */
export async function renewLease(db: Db, id: number, buildId: string, leaseUntil: string): Promise<boolean> {
  return (await currentBuild(db, id, buildId).update({ publish_lease_expires_at: leaseUntil })) === 1;
}

/** What a build left behind when it stopped: the ZIP it was writing (and its `.part`), if it had begun one. */
export interface AbandonedBuild {
  id: number;
  publishFile: string | null;
}

/** Fields that end a build, whatever its outcome. */
const BUILD_ENDED = { publish_build_id: null, publish_lease_expires_at: null, publish_file: null };

/**
 * Fails every build whose lease ran out (its process stopped renewing it) in one transaction. On
 * PostgreSQL the rows are taken with SKIP LOCKED, so processes sweeping at the same moment each
 * fail a build at most once and never wait for one another.
 */
export async function failExpiredBuilds(db: Db, error: string): Promise<AbandonedBuild[]> {
  return db.transaction(async (trx) => {
    let query = trx("projects")
      .where({ publish_status: "publishing" })
      .where((q) => q.whereNull("publish_lease_expires_at").orWhere("publish_lease_expires_at", "<", nowIso()))
      .select("id", "publish_file");
    if (isPostgres(trx)) query = query.forUpdate().skipLocked();
    const rows = await query;
    if (rows.length > 0) {
      await trx("projects")
        .whereIn(
          "id",
          rows.map((r) => r.id),
        )
        .update({ publish_status: "failed", ...BUILD_ENDED, publish_error: error, updated_at: nowIso() });
    }
    return rows.map((r) => ({ id: r.id as number, publishFile: r.publish_file as string | null }));
  });
}

/** The build the project is publishing with; a build that no longer is its own must not write. */
const currentBuild = (db: Db, id: number, buildId: string) =>
  db("projects").where({ id, publish_status: "publishing", publish_build_id: buildId });

/** The attachments to put in the ZIP, or `undefined` when the build is no longer the project's current one. */
export async function attachmentsForBuild(
  db: Db,
  projectId: number,
  buildId: string,
  zipName: string,
): Promise<PublishableAttachment[] | undefined> {
  // The file is named on the row before it exists, so whoever finds the lease expired can remove it.
  if ((await currentBuild(db, projectId, buildId).update({ publish_file: zipName })) === 0) return undefined;
  return attachmentsToPublish(db, projectId);
}

async function attachmentsToPublish(db: Db, projectId: number): Promise<PublishableAttachment[]> {
  // The order chosen when publishing: a published project's order cannot change (project-rules.ts).
  const order = (await projectPhotoOrder(db, projectId)) ?? DEFAULT_PHOTO_ORDER;
  const rows = await db("attachments")
    .where({ project_id: projectId })
    .orderBy(photoOrderColumns(order))
    .select("id", "original_name", "storage_key", "mime_type", "size", "created_at", "preview_key");
  return rows.map((r) => ({
    id: r.id,
    originalName: r.original_name,
    storageKey: r.storage_key,
    mimeType: r.mime_type,
    size: Number(r.size),
    createdAt: r.created_at,
    previewKey: r.preview_key ?? null,
  }));
}

/** Whether the project offers web-size downloads, so its build makes the web-size ZIP too. */
export async function offersWebSize(db: Db, projectId: number): Promise<boolean> {
  const row = await db("projects").where({ id: projectId }).first("delivery_offer_web_size");
  return Boolean(row?.delivery_offer_web_size);
}

/**
 * Records a finished build and its ZIP's size (the dashboard's published bytes), and runs
 * `putInPlace` (renaming the build's ZIP to the link's name) in the same transaction: the row
 * is locked by then, so a stale build never reaches the link's file, and a failed move leaves
 * the row as it was. `false` when it is no longer the project's current build (cancelled,
 * deleted, superseded).
 */
export async function markPublished(
  db: Db,
  id: number,
  buildId: string,
  zip: { path: string; size: number },
  putInPlace: () => Promise<void>,
): Promise<boolean> {
  return db.transaction(async (trx) => {
    const now = nowIso();
    const count = await currentBuild(trx, id, buildId).update({
      publish_status: "published",
      ...BUILD_ENDED,
      published_at: now,
      published_zip_path: zip.path,
      published_zip_size: zip.size,
      publish_error: null,
      updated_at: now,
    });
    if (count !== 1) return false;
    await recordWebhookEvent(trx, "project.published", { projectId: id });
    await putInPlace();
    return true;
  });
}

/** The ZIP name the project's link has kept (`<token>.zip`), or undefined before its first publish. */
export async function keptZipName(db: Db, id: number): Promise<string | undefined> {
  const row = await db("projects").where({ id }).first("published_zip_path");
  return row?.published_zip_path ? publishedZipKey(row.published_zip_path as string) : undefined;
}

export async function markFailed(db: Db, id: number, buildId: string, error: string): Promise<boolean> {
  const count = await currentBuild(db, id, buildId).update({
    publish_status: "failed",
    ...BUILD_ENDED,
    publish_error: error,
    updated_at: nowIso(),
  });
  return count === 1;
}

/**
 * Back to draft, keeping the link: the row keeps `published_zip_path` (the token) and the next
 * publish builds under the same name. `removeZips` deletes the link's ZIPs inside the
 * transaction, while the row is locked, so a publish claimed after this reset cannot have put
 * its own ZIP there yet. Answers the build the project was publishing with, for cancelling.
 */
export async function resetToDraft(
  db: Db,
  id: number,
  removeZips: (zipPath: string) => Promise<void>,
): Promise<{ changed: boolean; buildId: string | null } | undefined> {
  return db.transaction(async (trx) => {
    const row = await trx("projects").where({ id }).first("publish_status", "published_zip_path", "publish_build_id");
    if (!row) return undefined;
    // Already a draft: nothing to undo, and its updatedAt stays.
    if (row.publish_status === "draft") return { changed: false, buildId: null };
    await trx("projects")
      .where({ id })
      .update({
        publish_status: "draft",
        ...BUILD_ENDED,
        published_at: null,
        published_zip_size: null,
        publish_error: null,
        updated_at: nowIso(),
      });
    if (row.publish_status === "published") await recordWebhookEvent(trx, "project.unpublished", { projectId: id });
    if (row.published_zip_path) await removeZips(row.published_zip_path as string);
    return { changed: true, buildId: row.publish_build_id as string | null };
  });
}

/** After a restart of the one process a sqlite database has, nothing is building: every `publishing` project was interrupted. */
export async function failInterruptedPublishes(db: Db, error: string): Promise<number[]> {
  return db.transaction(async (trx) => {
    const ids = (await trx("projects").where({ publish_status: "publishing" }).pluck("id")) as number[];
    if (ids.length > 0) {
      await trx("projects")
        .whereIn("id", ids)
        .update({ publish_status: "failed", ...BUILD_ENDED, publish_error: error, updated_at: nowIso() });
    }
    return ids;
  });
}

/**
 * The keys of every ZIP some project names, published or being built, with their web-size ZIPs:
 * what recovery and the sweep of unfinished uploads must leave alone.
 */
export async function referencedZipKeys(db: Db): Promise<Set<string>> {
  const published = (await db("projects").whereNotNull("published_zip_path").pluck("published_zip_path")) as string[];
  const building = (await db("projects")
    .where({ publish_status: "publishing" })
    .whereNotNull("publish_file")
    .pluck("publish_file")) as string[];
  const names = [...published.map(publishedZipKey), ...building];
  return new Set(names.flatMap((name) => [name, webSizeZipName(name)]));
}
