import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export interface SmallDisk {
  dir: string;
  /** Writes a file of zeros until the disk is full, leaving `leaveBytes` free; answers its path. */
  fill(leaveBytes?: number): string;
  /** Unmounts it (lazily if something still holds a file open) and removes the mount point. */
  unmount(): void;
}

/**
 * A real file system of `megabytes` (tmpfs; the tests run as root) at `dir`, so writes past its
 * size fail with the ENOSPC a full disk gives. Unmount it in teardown, also when a test fails.
 */
export function mountSmallDisk(dir: string, megabytes: number): SmallDisk {
  fs.mkdirSync(dir, { recursive: true });
  execFileSync("mount", ["-t", "tmpfs", "-o", `size=${megabytes}m`, "tmpfs", dir]);
  let mounted = true;
  return {
    dir,
    fill(leaveBytes = 0) {
      const filler = path.join(dir, `filler-${fs.readdirSync(dir).length}`);
      const { bavail, bsize } = fs.statfsSync(dir);
      const handle = fs.openSync(filler, "w");
      try {
        const chunk = Buffer.alloc(64 * 1024);
        let left = bavail * bsize - leaveBytes;
        while (left > 0) {
          try {
            left -= fs.writeSync(handle, chunk, 0, Math.min(chunk.length, left));
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code === "ENOSPC") break;
            throw err;
          }
        }
      } finally {
        fs.closeSync(handle);
      }
      return filler;
    },
    unmount() {
      if (!mounted) return;
      mounted = false;
      try {
        execFileSync("umount", [dir]);
      } catch {
        execFileSync("umount", ["-l", dir]);
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
