import type { DashboardStats } from "../../api/types";
import type { AppContext } from "../context";
import { diskSpace } from "../storage/disk-space";
import { publishedZipKey } from "../storage/published-zips";
import { storesOf } from "../storage/stores";
import * as repo from "./dashboard.repository";

const GB = 1024 ** 3;
const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;

/**
 * Counts and bytes from the maintained totals. On disk, free and total space of the volume holding
 * UPLOADS_DIR from statfs: `diskUsage` (GB) is what Photodrop keeps (photos and published ZIPs)
 * against that plus the free space, the share of what it could use that it uses. In a bucket
 * there is no such volume: the local disk holds only uploads being received, so it is not
 * reported, and the bucket is named instead.
 */
export async function dashboardStats(ctx: AppContext): Promise<DashboardStats> {
  const { storage } = ctx.config;
  const [{ zipsBytes, ...counts }, space] = await Promise.all([
    repo.storedTotals(ctx.reads),
    storage.kind === "disk" ? diskSpace(ctx.config.uploadsDir) : undefined,
  ]);
  const used = counts.totalFileSize + zipsBytes;
  if (storage.kind === "s3" || !space) {
    const usedGb = round(used / GB, 2);
    const bucket = storage.kind === "s3" ? storage.bucket : "";
    return {
      ...counts,
      diskUsage: { used: usedGb, total: usedGb, percentage: 0 },
      location: { kind: "bucket", bucket },
    };
  }
  const total = used + space.freeBytes;
  return {
    ...counts,
    diskUsage: {
      used: round(used / GB, 2),
      total: round(total / GB, 2),
      percentage: total > 0 ? round((used / total) * 100, 1) : 0,
    },
    location: { kind: "disk" },
    storage: { photosBytes: counts.totalFileSize, zipsBytes, ...space },
  };
}

/**
 * At start: projects published before ZIP sizes were recorded get theirs from the file. A ZIP
 * that is missing takes no space: it is recorded as 0, so it is not looked for at every start.
 */
export async function fillPublishedZipSizes(ctx: AppContext): Promise<void> {
  const published = storesOf(ctx.config).published;
  for (const { id, zipPath } of await repo.publishedWithoutZipSize(ctx.db)) {
    const stat = await published.stat(publishedZipKey(zipPath)).catch(() => undefined);
    await repo.recordZipSize(ctx.db, id, zipPath, stat?.size ?? 0);
  }
}
