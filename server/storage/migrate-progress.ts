import type { MigrationProgress } from "./migrate";

export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

const BAR_WIDTH = 24;

/** `120/400 files, 34.2/120.0 MiB, 5.1 MiB/s`: the rate counts bytes copied, not those found already there. */
export function progressLine(progress: MigrationProgress, elapsedMs: number): string {
  const rate = progress.copiedBytes / Math.max(elapsedMs / 1000, 0.001);
  return (
    `${progress.doneFiles}/${progress.files} files, ` +
    `${(progress.doneBytes / 1024 / 1024).toFixed(1)}/${mib(progress.bytes)}, ${mib(rate)}/s`
  );
}

function bar(progress: MigrationProgress): string {
  const share = progress.bytes > 0 ? progress.doneBytes / progress.bytes : progress.files > 0 ? 1 : 0;
  const filled = Math.round(share * BAR_WIDTH);
  return `[${"#".repeat(filled)}${"-".repeat(BAR_WIDTH - filled)}] ${Math.floor(share * 100)}%`;
}

export interface ProgressOutput {
  write(text: string): unknown;
  isTTY?: boolean;
}

/**
 * Progress on a terminal: one bar redrawn in place (at most ten times a second). Anywhere else
 * (a log file, a pipe): a plain line every `everyMs`, so a log is not flooded.
 */
export function progressReporter(out: ProgressOutput, everyMs = 10_000, now = Date.now) {
  const started = now();
  let shown = 0;
  const interval = out.isTTY ? 100 : everyMs;
  const draw = (progress: MigrationProgress) => {
    const line = progressLine(progress, now() - started);
    out.write(out.isTTY ? `\r\x1b[K${bar(progress)} ${line}` : `${line}\n`);
  };
  return {
    update(progress: MigrationProgress) {
      if (now() - shown < interval) return;
      shown = now();
      draw(progress);
    },
    /** Shows the final figures and leaves the cursor on a line of its own. */
    finish(progress: MigrationProgress) {
      draw(progress);
      if (out.isTTY) out.write("\n");
    },
    /** Writes a line of its own above the bar (a failure, a dry run's object), to `target` or beside the bar. */
    note(text: string, target: ProgressOutput = out) {
      if (out.isTTY) out.write("\r\x1b[K");
      target.write(`${text}\n`);
      shown = 0;
    },
  };
}
