import type { AppContext } from "./context";
import { ensureAdminAccount } from "./users/admin-bootstrap";
import { seedDemoData, isDatabaseEmpty } from "./seeds/demo";
import { recoverInterruptedPublishes } from "./publish/recovery";
import { removeStaleTempFiles } from "./storage/paths";
import { tightenDataFolders, type TightenSummary } from "./storage/tighten-modes";
import { resumeRenditions } from "./attachments/renditions.service";
import { fillPublishedZipSizes } from "./dashboard/dashboard.service";

export interface StartupReport {
  /** Set when the demo seed created the local admin: printed once, never logged again. */
  demoAdmin?: { email: string; password: string };
  /** The data folders' files given their modes, in the background (an older install's were 0644). */
  fileModes: Promise<TightenSummary>;
}

/** One-off work at every start, in order (the data folders' file modes meanwhile): bootstrap admin, demo data on an empty database, crash recovery, ZIP sizes not yet recorded, thumbnails and previews still to render. */
export async function runStartupTasks(ctx: AppContext): Promise<StartupReport> {
  const empty = await isDatabaseEmpty(ctx.db);
  await ensureAdminAccount(ctx);
  // Not awaited: a million photos take a while to look at, and the service is safe meanwhile (the folders were set first).
  const report: StartupReport = { fileModes: tightenDataFolders(ctx.config, ctx.logger) };
  if (empty && ctx.config.seedDemo) {
    report.demoAdmin = await seedDemoData(ctx, { createAdmin: !ctx.config.admin });
  }
  await recoverInterruptedPublishes(ctx);
  await fillPublishedZipSizes(ctx);
  resumeRenditions(ctx);
  // Receive folders of a process that stopped mid-upload; an hour old means nobody is writing them.
  await removeStaleTempFiles(ctx.config, 60 * 60 * 1000);
  return report;
}
