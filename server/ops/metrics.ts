import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { AppContext } from "../context";
import { publishQueue } from "../publish/publish-job";
import { renditionQueue } from "../attachments/renditions.service";
import { findPublishState } from "../publish/publish.repository";
import { diskSpace } from "../storage/disk-space";
import { publishedZipKey } from "../storage/published-zips";
import { storesOf } from "../storage/stores";
import { HttpRequestMetrics } from "./http-request-metrics";

/** Every Photodrop metric of one running app, in a registry of its own (tests run several apps in one process). */
export class AppMetrics {
  readonly registry = new Registry();
  private readonly registers = [this.registry];

  readonly http = new HttpRequestMetrics(this.registry);
  readonly uploadedFiles = new Counter({
    name: "photodrop_uploads_total",
    help: "Files accepted by upload and stored as attachments",
    registers: this.registers,
  });
  readonly uploadedBytes = new Counter({
    name: "photodrop_upload_bytes_total",
    help: "Bytes of the files accepted by upload",
    registers: this.registers,
  });
  readonly uploadRefusals = new Counter({
    name: "photodrop_upload_refusals_total",
    help: "Upload requests refused or failed, by reason",
    labelNames: ["reason"] as const,
    registers: this.registers,
  });
  readonly publishBuilds = new Counter({
    name: "photodrop_publish_builds_total",
    help: "Publish builds that ended, by outcome (completed or failed)",
    labelNames: ["outcome"] as const,
    registers: this.registers,
  });
  readonly publishDuration = new Histogram({
    name: "photodrop_publish_build_duration_seconds",
    help: "Time from a build's start to its end, by outcome",
    labelNames: ["outcome"] as const,
    buckets: [0.5, 1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600],
    registers: this.registers,
  });
  readonly publishBytes = new Counter({
    name: "photodrop_publish_bytes_total",
    help: "Bytes of the published ZIPs written by completed builds",
    registers: this.registers,
  });
  readonly eventsConnections = new Gauge({
    name: "photodrop_events_connections",
    help: "Open /events WebSocket connections",
    registers: this.registers,
  });

  constructor(ctx: AppContext) {
    const queue = publishQueue(ctx);
    new Gauge({
      name: "photodrop_publish_queue_length",
      help: "Publish builds waiting or running",
      registers: this.registers,
      collect() {
        this.set(queue.size);
      },
    });
    const renditions = renditionQueue(ctx);
    for (const [rendition, name] of [
      ["thumbnail", "photodrop_thumbnails_waiting"],
      ["preview", "photodrop_previews_waiting"],
    ] as const) {
      new Gauge({
        name,
        help: `${rendition === "thumbnail" ? "Thumbnails" : "Previews"} of stored photos waiting to be rendered in idle time`,
        registers: this.registers,
        collect() {
          this.set(renditions.waitingOf(rendition));
        },
      });
    }
    this.observeDiskSpace(ctx);
    collectDefaultMetrics({ register: this.registry });
    this.observePublishing(ctx);
  }

  /** Free and total bytes of each data folder's file system, read (statfs) at every scrape. */
  private observeDiskSpace(ctx: AppContext) {
    const folders = [
      ["uploads", ctx.config.uploadsDir],
      ["published", ctx.config.publishedDir],
    ] as const;
    for (const [name, help, field] of [
      ["photodrop_disk_free_bytes", "Free bytes of the file system holding each data folder", "freeBytes"],
      ["photodrop_disk_total_bytes", "Size in bytes of the file system holding each data folder", "totalBytes"],
    ] as const) {
      new Gauge({
        name,
        help,
        labelNames: ["folder"] as const,
        registers: this.registers,
        async collect() {
          for (const [folder, dir] of folders) {
            const space = await diskSpace(dir).catch(() => undefined);
            if (space) this.set({ folder }, space[field]);
          }
        },
      });
    }
  }

  /** Counts builds from the publish events on the bus, so the build job itself knows nothing of metrics. */
  private observePublishing(ctx: AppContext) {
    const startedAt = new Map<number, number>();
    ctx.events.onPublishEvent(({ projectId, type }) => {
      if (type === "publish_started") startedAt.set(projectId, performance.now());
      if (type !== "publish_completed" && type !== "publish_failed") return;
      const outcome = type === "publish_completed" ? "completed" : "failed";
      const started = startedAt.get(projectId);
      startedAt.delete(projectId);
      this.publishBuilds.inc({ outcome });
      if (started !== undefined) this.publishDuration.observe({ outcome }, (performance.now() - started) / 1000);
      if (outcome === "completed") {
        void publishedZipSize(ctx, projectId)
          .then((bytes) => this.publishBytes.inc(bytes))
          .catch((err) => ctx.logger.debug({ err, projectId }, "metrics: could not size a published ZIP"));
      }
    });
  }

  /** One accepted upload request's files (called once their rows are committed). */
  uploadsAccepted(files: ReadonlyArray<{ size: number }>) {
    this.uploadedFiles.inc(files.length);
    this.uploadedBytes.inc(files.reduce((sum, f) => sum + f.size, 0));
  }

  /** Counts one open /events socket until it closes. */
  trackEventsConnection(socket: { once(event: "close", listener: () => void): unknown }) {
    this.eventsConnections.inc();
    socket.once("close", () => this.eventsConnections.dec());
  }
}

async function publishedZipSize(ctx: AppContext, projectId: number): Promise<number> {
  const state = await findPublishState(ctx.db, projectId);
  if (!state?.publishedZipPath) return 0;
  return (await storesOf(ctx.config).published.stat(publishedZipKey(state.publishedZipPath)))?.size ?? 0;
}

const all = new WeakMap<AppContext, AppMetrics>();

/** The metrics of one running app, created (and observing the bus) on first use. */
export function appMetrics(ctx: AppContext): AppMetrics {
  let metrics = all.get(ctx);
  if (!metrics) {
    metrics = new AppMetrics(ctx);
    all.set(ctx, metrics);
  }
  return metrics;
}
