import fs from "node:fs/promises";

export interface DiskSpace {
  /** Bytes an unprivileged writer can still use on the file system holding the folder. */
  freeBytes: number;
  totalBytes: number;
}

/** Free and total space of the file system that holds `dir` (statfs: the data volume, not the root disk). */
export async function diskSpace(dir: string): Promise<DiskSpace> {
  const s = await fs.statfs(dir);
  return { freeBytes: s.bavail * s.bsize, totalBytes: s.blocks * s.bsize };
}
