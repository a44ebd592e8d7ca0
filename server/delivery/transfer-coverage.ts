/** A download is forgotten this long after its last byte went out, complete or not. */
const IDLE_MS = 24 * 3600 * 1000;
const SWEEP_THRESHOLD = 10_000;

interface Transfer {
  size: number;
  /** Delivered byte ranges [start, end), sorted and merged. */
  ranges: Array<[number, number]>;
  touchedAt: number;
}

function merge(ranges: Array<[number, number]>, start: number, end: number): Array<[number, number]> {
  const all = [...ranges, [start, end] as [number, number]].sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const [s, e] of all) {
    const last = merged[merged.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else merged.push([s, e]);
  }
  return merged;
}

/**
 * Which bytes of a file each downloader has received, to count full transfers: one person's
 * download is every response for the same file to the same downloader (address and browser),
 * and it counts once, when the bytes delivered together cover the whole file. So a download
 * resumed with a Range request counts once, and so do a download manager's parallel chunks;
 * after a count the downloader starts afresh, so a second full download counts again.
 */
export function createTransferCoverage(now: () => number = Date.now) {
  const transfers = new Map<string, Transfer>();

  function sweep(at: number) {
    for (const [key, t] of transfers) if (at - t.touchedAt > IDLE_MS) transfers.delete(key);
  }

  return {
    /** Records bytes [start, end) of a `size`-byte file as delivered; true when that completes a full transfer. */
    record(key: string, size: number, start: number, end: number): boolean {
      const at = now();
      if (transfers.size > SWEEP_THRESHOLD) sweep(at);
      if (size <= 0 || end <= start) return false;
      let transfer = transfers.get(key);
      if (!transfer || transfer.size !== size || at - transfer.touchedAt > IDLE_MS) {
        transfer = { size, ranges: [], touchedAt: at };
        transfers.set(key, transfer);
      }
      transfer.touchedAt = at;
      transfer.ranges = merge(transfer.ranges, Math.max(0, start), Math.min(size, end));
      const [first] = transfer.ranges;
      if (transfer.ranges.length === 1 && first[0] === 0 && first[1] >= size) {
        transfers.delete(key);
        return true;
      }
      return false;
    },
  };
}

export type TransferCoverage = ReturnType<typeof createTransferCoverage>;
