import crypto from "node:crypto";
import fsp from "node:fs/promises";
import { renditionQueue } from "../attachments/renditions.service";
import type { AppContext } from "../context";
import type { PublishEventType } from "../events/bus";
import { InsufficientStorageError } from "../http/errors";
import { newPublishedZipName, publishedZipFile, webSizeZipFile } from "../storage/paths";
import { isDiskFull } from "../storage/disk-full";
import { dataFileModes, settleFile } from "../storage/file-modes";
import { removePublishedZips, webSizeZipKey } from "../storage/published-zips";
import { storesOf } from "../storage/stores";
import { zipEntryNames } from "./entry-names";
import { attachmentsForBuild, keptZipName, markFailed, markPublished, offersWebSize } from "./publish.repository";
import { PublishQueue, type PublishBuild } from "./publish-queue";
import { writeZip, type ZipSource } from "./zip-writer";
import { notifyGalleryUpdated } from "../sending/update-notice";
import { expectedWebSizeWork, webSizeSources } from "./web-size-zip";

const queues = new WeakMap<AppContext, PublishQueue>();

/** The build queue of one running app (tests run several apps in one process). */
export function publishQueue(ctx: AppContext): PublishQueue {
  let queue = queues.get(ctx);
  if (!queue) {
    queue = new PublishQueue(ctx.config.publishConcurrency);
    queues.set(ctx, queue);
  }
  return queue;
}

/** At most four progress events a second, only ever increasing, and never 100 before the commit. */
const PROGRESS_INTERVAL_MS = 250;

class ProgressThrottle {
  private read = 0;
  private sent = 0;
  private sentAt = 0;

  constructor(
    private total: number,
    private readonly send: (percent: number) => void,
  ) {}

  /** The work measured once it is known (the web-size ZIP's previews); what was sent is never taken back. */
  resize = (total: number) => {
    this.total = total;
  };

  add = (bytes: number) => {
    this.read += bytes;
    const percent = Math.min(99, Math.floor((this.read * 100) / Math.max(1, this.total)));
    const now = Date.now();
    if (percent > this.sent && now - this.sentAt >= PROGRESS_INTERVAL_MS) {
      this.sent = percent;
      this.sentAt = now;
      this.send(percent);
    }
  };
}

const ZIP_TYPE = { contentType: "application/zip" };

/** A failure whose message is fit to show as it is. */
class PublishFailure extends Error {}

/** The message stored in publish_error and sent with publish_failed; never a server path. */
function describeFailure(err: unknown, sources: ZipSource[], ...zipFiles: string[]): string {
  if (err instanceof PublishFailure) return err.message;
  const e = err as NodeJS.ErrnoException;
  if (isDiskFull(err) || err instanceof InsufficientStorageError) return "Not enough disk space to build the ZIP";
  const source = sources.find((s) => s.file === e?.path);
  if (source) {
    return e.code === "ENOENT"
      ? `Attachment file is missing: ${source.name}`
      : `Could not read attachment: ${source.name}`;
  }
  if (zipFiles.includes(e?.path ?? "")) return "Could not write the ZIP file";
  return "Could not build the ZIP";
}

/** Makes a rename durable: the directory entry is on disk before the database says "published". */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await fsp.open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** A fresh id for one publish claim; random, so a stale build can never match a newer claim. */
export const newBuildId = () => crypto.randomBytes(16).toString("base64url");

/**
 * Builds the project's ZIP under a name of its own, renamed from `.part` when whole (in object
 * storage: a multipart upload, completed once whole), then records it, moving it to the name
 * the project's link kept from an earlier publish in the same step. With `notifyRecipients`,
 * mails the link's recipients once it is published. On failure the project becomes `failed` with a
 * reason; on cancel (signal) it only cleans up, since whoever cancelled sets the status. A build
 * that is no longer the project's current one (its claim was undone or replaced) records nothing
 * and leaves no file. Never throws.
 */
export async function runPublishBuild(ctx: AppContext, build: PublishBuild, signal: AbortSignal): Promise<void> {
  const { projectId, buildId } = build;
  const emit = (type: PublishEventType, data: { progress?: number; error?: string }) =>
    ctx.events.publishEvent({ projectId, type, data });
  const queue = publishQueue(ctx);
  const zipName = newPublishedZipName();
  const { uploads, published } = storesOf(ctx.config);
  const zipFile = publishedZipFile(ctx.config, zipName);
  const partFile = `${zipFile}.part`;
  const webZipFile = webSizeZipFile(ctx.config, zipName);
  const webPartFile = `${webZipFile}.part`;
  let sources: ZipSource[] = [];
  let webSources: ZipSource[] = [];
  const startedAt = Date.now();
  const rendersResume = renditionQueue(ctx).publishStarted();

  try {
    const attachments = await attachmentsForBuild(ctx.db, projectId, buildId, zipName);
    if (!attachments) return;
    emit("publish_started", { progress: 0 });
    if (attachments.length === 0) throw new PublishFailure("Project has no attachments");
    const names = zipEntryNames(attachments);
    sources = attachments.map((a, i) => ({
      // A path on disk, a key in object storage (read from there by writeZip).
      file: uploads.localFile(a.storageKey) ?? a.storageKey,
      name: names[i],
      size: a.size,
      date: new Date(a.createdAt),
    }));
    const total = sources.reduce((sum, s) => sum + s.size, 0);
    // With web size offered, the previews' ZIP is built too: one progress over both (docs/gallery-and-sending.md, "What the client may download").
    const withWebSize = await offersWebSize(ctx.db, projectId);
    const progress = new ProgressThrottle(total + (withWebSize ? expectedWebSizeWork(attachments) : 0), (percent) => {
      if (signal.aborted) return;
      queue.reportProgress(buildId, percent);
      emit("publish_progress", { progress: percent });
    });
    if (withWebSize) {
      const web = await webSizeSources(ctx, attachments, { signal, onWork: progress.add });
      webSources = web.sources;
      progress.resize(total + web.work);
    }
    let size: number;
    if (published.kind === "disk") {
      await writeZip(sources, partFile, { signal, onBytes: progress.add });
      if (withWebSize) await writeZip(webSources, webPartFile, { signal, onBytes: progress.add });
      for (const part of withWebSize ? [partFile, webPartFile] : [partFile])
        await settleFile(part, dataFileModes(ctx.config));
      await fsp.rename(partFile, zipFile);
      if (withWebSize) await fsp.rename(webPartFile, webZipFile);
      await syncDirectory(ctx.config.publishedDir);
      size = (await fsp.stat(zipFile)).size;
    } else {
      // Each ZIP is a multipart upload, completed only once whole and aborted on any failure.
      const options = { signal, onBytes: progress.add, readFrom: uploads };
      await writeZip(sources, published.createWriter(zipName, ZIP_TYPE), options);
      if (withWebSize) await writeZip(webSources, published.createWriter(webSizeZipKey(zipName), ZIP_TYPE), options);
      size = (await published.stat(zipName))?.size ?? 0;
    }
    signal.throwIfAborted();
    // A project published before keeps its link: the ZIP moves to the name the link has kept.
    const linkName = (await keptZipName(ctx.db, projectId)) ?? zipName;
    const putInPlace = async () => {
      if (linkName === zipName) return;
      await published.rename(zipName, linkName);
      if (withWebSize) await published.rename(webSizeZipKey(zipName), webSizeZipKey(linkName));
      else await published.remove(webSizeZipKey(linkName));
      if (published.kind === "disk") await syncDirectory(ctx.config.publishedDir);
    };
    const zip = { path: `published/${linkName}`, size };
    if (!(await markPublished(ctx.db, projectId, buildId, zip, putInPlace))) {
      await removePublishedZips(ctx.config, zipName);
      return;
    }
    ctx.logger.info(
      { projectId, files: sources.length, bytes: total, webSize: withWebSize, ms: Date.now() - startedAt },
      "project published",
    );
  } catch (err) {
    const message = describeFailure(err, [...sources, ...webSources], partFile, webPartFile);
    await handleFailure(ctx, build, signal, err, message, zipName);
    return;
  } finally {
    rendersResume();
  }
  emit("publish_completed", { progress: 100 });
  ctx.events.resourceChanged({ resource: "projects", type: "updated", ids: [projectId] });
  if (build.notifyRecipients) await notifyGalleryUpdated(ctx, projectId);
}

async function handleFailure(
  ctx: AppContext,
  { projectId, buildId }: PublishBuild,
  signal: AbortSignal,
  err: unknown,
  message: string,
  zipName: string,
): Promise<void> {
  try {
    await removePublishedZips(ctx.config, zipName);
    if (signal.aborted) return;
    ctx.logger.warn({ err, projectId }, "publishing failed");
    if (await markFailed(ctx.db, projectId, buildId, message)) {
      ctx.events.publishEvent({ projectId, type: "publish_failed", data: { error: message } });
      ctx.events.resourceChanged({ resource: "projects", type: "updated", ids: [projectId] });
    }
  } catch (cleanupErr) {
    // Left `publishing`, it is turned into `failed` by the recovery at the next start.
    ctx.logger.error({ err: cleanupErr, projectId }, "could not record a failed publish");
  }
}
