import fs from "node:fs";

/** Reads a file's bytes in order, a chunk at a time, without holding more than one chunk. */
class ByteReader {
  private chunk: Buffer = Buffer.alloc(0);
  private pos = 0;

  constructor(private readonly source: AsyncIterator<Buffer>) {}

  /** False once the file has no byte left. */
  private async fill(): Promise<boolean> {
    while (this.pos >= this.chunk.length) {
      const next = await this.source.next();
      if (next.done) return false;
      this.chunk = next.value;
      this.pos = 0;
    }
    return true;
  }

  async byte(): Promise<number | undefined> {
    return (await this.fill()) ? this.chunk[this.pos++] : undefined;
  }

  async uint16(): Promise<number | undefined> {
    const high = await this.byte();
    const low = await this.byte();
    return high === undefined || low === undefined ? undefined : (high << 8) | low;
  }

  async skip(count: number): Promise<boolean> {
    let left = count;
    while (left > 0) {
      if (!(await this.fill())) return false;
      const step = Math.min(left, this.chunk.length - this.pos);
      this.pos += step;
      left -= step;
    }
    return true;
  }

  /** A marker's code after its 0xFF and any 0xFF fill bytes; undefined if the next byte is no marker. */
  async marker(): Promise<number | undefined> {
    if ((await this.byte()) !== 0xff) return undefined;
    let code = await this.byte();
    while (code === 0xff) code = await this.byte();
    return code;
  }

  /**
   * Passes over entropy-coded data (stuffed 0xFF 0x00 bytes and restart markers included) and
   * answers the code of the marker that ends it, or undefined if the file ends first.
   */
  async markerAfterEntropyData(): Promise<number | undefined> {
    let afterFF = false;
    while (await this.fill()) {
      const { chunk } = this;
      while (this.pos < chunk.length) {
        if (!afterFF) {
          const at = chunk.indexOf(0xff, this.pos);
          if (at < 0) {
            this.pos = chunk.length;
            break;
          }
          this.pos = at + 1;
          afterFF = true;
          continue;
        }
        const code = chunk[this.pos++];
        if (code === 0xff) continue;
        if (code !== 0x00 && !(code >= 0xd0 && code <= 0xd7)) return code;
        afterFF = false;
      }
    }
    return undefined;
  }
}

const SOS = 0xda;
const EOI = 0xd9;
/** Baseline and extended sequential Huffman frames: one scan can carry the whole image. */
const SEQUENTIAL_HUFFMAN = new Set([0xc0, 0xc1]);
const isFrameMarker = (code: number) => code >= 0xc0 && code <= 0xcf && code !== 0xc4 && code !== 0xc8 && code !== 0xcc;
/** Markers that stand alone, without a length: SOI, EOI, TEM and the restarts. */
const isStandalone = (code: number) => code === 0xd8 || code === EOI || code === 0x01 || (code >= 0xd0 && code <= 0xd7);

/**
 * Whether a file is a sequential Huffman JPEG whose one frame is followed by exactly one scan and
 * whose scan's data runs on until an end-of-image marker. That proves the file was not cut short
 * without decoding it; it says nothing of the tables or the pixels. Anything else answers false
 * (progressive files, several scans, a stray marker, a file ending early): the caller decodes then.
 * Read as a stream: one chunk in memory at a time.
 */
export async function endsWithWholeScan(file: string): Promise<boolean> {
  const stream = fs.createReadStream(file, { highWaterMark: 1024 * 1024 });
  try {
    const reader = new ByteReader(stream[Symbol.asyncIterator]());
    if ((await reader.byte()) !== 0xff || (await reader.byte()) !== 0xd8) return false;
    let frame: number | undefined;
    for (;;) {
      const code = await reader.marker();
      if (code === undefined || isStandalone(code)) return false;
      const length = await reader.uint16();
      if (length === undefined || length < 2) return false;
      if (isFrameMarker(code)) {
        if (frame !== undefined) return false;
        frame = code;
      }
      if (!(await reader.skip(length - 2))) return false;
      if (code === SOS) break;
    }
    if (frame === undefined || !SEQUENTIAL_HUFFMAN.has(frame)) return false;
    return (await reader.markerAfterEntropyData()) === EOI;
  } finally {
    stream.destroy();
  }
}
