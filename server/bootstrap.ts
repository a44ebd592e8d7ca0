import fs from "node:fs";
import type { Config } from "./config";
import type { AppContext } from "./context";
import { migrate, openDatabase, openReadPool } from "./db/database";
import { describeDatabaseUrl, isPostgresUrl } from "./db/dialect";
import { EventBus } from "./events/bus";
import { startPgRelay } from "./events/pg-relay";
import { createLogger, type Logger } from "./logger";
import { createTokenService } from "./auth/tokens";
import { renditionQueue } from "./attachments/renditions.service";
import { recordingsSettled } from "./activity/activity.service";
import { mailsSettled } from "./mail/mailer";
import { openStores, storageProblem } from "./storage/stores";
import { dataFileModes, dataGroupProblem, makeFolderSync, settleSync, type FileModes } from "./storage/file-modes";

export class StartupError extends Error {}

/** Made if missing, and given its mode at once: what is inside is then out of others' reach before it is walked. */
function ensureWritableDir(dir: string, name: string, modes: FileModes, logger: Logger) {
  try {
    makeFolderSync(dir, modes);
    fs.accessSync(dir, fs.constants.W_OK);
  } catch (err) {
    throw new StartupError(`Cannot use ${name} ${dir}: ${(err as Error).message}`);
  }
  try {
    settleSync(dir, modes.dir, modes);
  } catch (err) {
    // A mount point another user owns (a NAS share): its owner decides who reads it.
    logger.warn({ err, dir }, `could not set the mode of ${name}`);
  }
}

/** Opens the database, runs migrations and builds the shared services. */
export async function createContext(
  config: Config,
  logger: Logger = createLogger(config.logLevel),
): Promise<AppContext> {
  const groupProblem = dataGroupProblem(config);
  if (groupProblem) throw new StartupError(groupProblem);
  ensureWritableDir(config.uploadsDir, "UPLOADS_DIR", dataFileModes(config), logger);
  ensureWritableDir(config.publishedDir, "PUBLISHED_DIR", dataFileModes(config), logger);
  const problem = await storageProblem(config);
  if (problem) throw new StartupError(problem);
  await openStores(config);
  const db = openDatabase(config.databaseUrl, { poolMax: config.databasePoolMax });
  try {
    await migrate(db);
  } catch (err) {
    await db.destroy();
    throw new StartupError(
      `Cannot open database ${describeDatabaseUrl(config.databaseUrl)}: ${(err as Error).message}`,
    );
  }
  const tokens = await createTokenService(db, config.accessTokenTtl);
  const events = new EventBus();
  // Several processes may share a PostgreSQL database; each hears the others' changes.
  if (isPostgresUrl(config.databaseUrl)) {
    try {
      const relay = await startPgRelay(config.databaseUrl, logger, {
        receive: (message) => events.receive(message),
        reconnected: () => events.announcementsLost(),
      });
      events.useRelay(relay);
    } catch (err) {
      await db.destroy();
      throw new StartupError(
        `Cannot listen for events on ${describeDatabaseUrl(config.databaseUrl)}: ${(err as Error).message}`,
      );
    }
  }
  return {
    config,
    db,
    reads: openReadPool(config.databaseUrl, db, { poolMax: config.databasePoolMax }),
    logger,
    events,
    tokens,
  };
}

/** Lets go of the database once renditions (thumbnails, previews) and activity recordings under way have ended: the events connection, then the pools. */
export async function closeContext(ctx: AppContext): Promise<void> {
  await renditionQueue(ctx).close();
  await recordingsSettled(ctx);
  await mailsSettled(ctx);
  await ctx.events.close();
  if (ctx.reads !== ctx.db) await ctx.reads.destroy();
  await ctx.db.destroy();
}
