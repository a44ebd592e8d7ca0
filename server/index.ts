import http from "node:http";
import { loadConfig, ConfigError } from "./config";
import { closeContext, createContext, StartupError } from "./bootstrap";
import { createApp } from "./app";
import { runStartupTasks } from "./startup";
import { attachEventsServer } from "./events/events-server";
import { cancelAllPublishes } from "./publish/publish.service";
import { superviseBuilds } from "./publish/publish-lease";
import { superviseAbandonedUploads } from "./publish/upload-sweep";
import { sweepStaleTempFiles } from "./storage/paths";
import { startupBanner } from "./startup-banner";
import { superviseDeliveryMail } from "./reminders/delivery-schedule";
import { superviseSearchIndexes } from "./db/search-index-upkeep";
import { restrictUmask } from "./storage/file-modes";
import { giveBackMemoryWhenIdle } from "./ops/idle-memory";
import { backfillCaptureTimes } from "./attachments/capture-backfill";
import { startWebhookWorker } from "./webhooks/outbox-worker";

async function main() {
  // Before the database is opened: sqlite, sharp and the upload parser make files under it.
  restrictUmask();
  const config = loadConfig();
  const ctx = await createContext(config);
  const report = await runStartupTasks(ctx);
  const stopSweeping = sweepStaleTempFiles(ctx.config, ctx.logger);
  const stopSupervising = superviseBuilds(ctx);
  const stopSweepingUploads = superviseAbandonedUploads(ctx);
  const stopDeliveryMail = superviseDeliveryMail(ctx);
  const stopMergingSearch = superviseSearchIndexes(ctx);
  const stopGivingBackMemory = giveBackMemoryWhenIdle();
  const stopReadingCaptureTimes = backfillCaptureTimes(ctx);
  const stopWebhooks = startWebhookWorker(ctx);
  const app = createApp(ctx);
  const server = http.createServer(app.serverOptions, app);
  const events = attachEventsServer(server, ctx);

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, resolve);
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  ctx.logger.info({ host: config.host, port, publicUrl: config.publicUrl }, "Photodrop is listening");
  // Printed straight to the terminal, once, so the password never reaches a log file.
  console.log(`\n${startupBanner({ host: config.host, port, publicUrl: config.publicUrl }).join("\n")}`);
  if (report.demoAdmin) {
    console.log(`Sign in as ${report.demoAdmin.email} with password ${report.demoAdmin.password}`);
    console.log("(this password is shown only once; change it after signing in)\n");
  } else if (config.admin) {
    console.log(`Sign in as ${config.admin.email} with ADMIN_PASSWORD\n`);
  }

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    ctx.logger.info({ signal }, "shutting down");
    const force = setTimeout(() => process.exit(1), 10_000).unref();
    stopSweeping();
    stopSupervising();
    stopSweepingUploads();
    stopDeliveryMail();
    stopMergingSearch();
    stopGivingBackMemory();
    const captureTimesRead = stopReadingCaptureTimes();
    const webhooksSent = stopWebhooks();
    await events.close();
    server.closeIdleConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    // A build cut short leaves no partial file; its project is marked failed at the next start.
    await cancelAllPublishes(ctx);
    await captureTimesRead;
    await webhooksSent;
    await closeContext(ctx);
    clearTimeout(force);
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

main().catch((err) => {
  if (err instanceof ConfigError || err instanceof StartupError) {
    console.error(err.message);
  } else {
    console.error("Photodrop failed to start:", err);
  }
  process.exit(1);
});
