import fs from "node:fs/promises";
import type { AppContext } from "../context";
import { countEverything } from "./dashboard.repository";

const GB = 1024 ** 3;
const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;

/** Space on the file system that holds UPLOADS_DIR, in GB (1024³ bytes) as the dashboard shows it. */
export async function diskUsage(uploadsDir: string) {
  const s = await fs.statfs(uploadsDir);
  const totalBytes = s.blocks * s.bsize;
  const usedBytes = (s.blocks - s.bfree) * s.bsize;
  return {
    used: round(usedBytes / GB, 2),
    total: round(totalBytes / GB, 2),
    percentage: totalBytes > 0 ? round((usedBytes / totalBytes) * 100, 1) : 0,
  };
}

export async function dashboardStats(ctx: AppContext) {
  const [counts, disk] = await Promise.all([countEverything(ctx.db), diskUsage(ctx.config.uploadsDir)]);
  return { ...counts, diskUsage: disk };
}
