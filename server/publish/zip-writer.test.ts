import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { zipEntryNames } from "./entry-names";
import { BufferPool, PooledFileReader, PooledFileWriter, PushedLengths } from "./pooled-io";
import { crc32, readZip, unzipTest } from "./test-fixtures";
import { writeZip, type ZipSource } from "./zip-writer";

let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-zip-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function sourceFile(name: string, size: number): ZipSource & { bytes: Buffer } {
  const bytes = crypto.randomBytes(size);
  const file = path.join(dir, `${name}.bin`);
  fs.writeFileSync(file, bytes);
  return { file, name, size, date: new Date("2026-05-01T10:00:00Z"), bytes };
}

const signal = () => new AbortController().signal;

/** The ZIP64 end-of-central-directory record and its locator. */
const hasZip64End = (zip: Buffer) =>
  zip.includes(Buffer.from([0x50, 0x4b, 0x06, 0x06])) && zip.includes(Buffer.from([0x50, 0x4b, 0x06, 0x07]));

describe("writeZip", () => {
  it("stores files larger than its read buffer with the right CRC, readable by yauzl and unzip", async () => {
    const sources = [sourceFile("a.jpg", 3 * 1024 * 1024 + 17), sourceFile("b.jpg", 0), sourceFile("c.jpg", 1)];
    const out = path.join(dir, "out.zip");
    let read = 0;

    await writeZip(sources, out, { signal: signal(), onBytes: (n) => (read += n) });

    const entries = await readZip(out);
    expect(entries.map((e) => [e.name, e.size, e.crc32])).toEqual(sources.map((s) => [s.name, s.size, crc32(s.bytes)]));
    entries.forEach((e, i) => expect(e.content.equals(sources[i].bytes)).toBe(true));
    expect(read).toBe(3 * 1024 * 1024 + 18);
    expect(hasZip64End(fs.readFileSync(out))).toBe(false);
    expect(await unzipTest(out)).toMatch(/No errors detected/);
  });

  it("stays whole when it is large enough to be flushed to disk while it is written", async () => {
    // Over the writer's 64 MiB flush interval, so the early datasync runs during the build.
    const sources = [sourceFile("big-1.jpg", 40 * 1024 * 1024), sourceFile("big-2.jpg", 40 * 1024 * 1024 + 3)];
    const out = path.join(dir, "out.zip");

    await writeZip(sources, out, { signal: signal() });

    const entries = await readZip(out);
    expect(entries.map((e) => [e.name, e.size, e.crc32])).toEqual(sources.map((s) => [s.name, s.size, crc32(s.bytes)]));
    expect(await unzipTest(out)).toMatch(/No errors detected/);
  });

  it("writes ZIP64 end records once the archive reaches the threshold, still readable everywhere", async () => {
    const sources = [sourceFile("a.jpg", 5000), sourceFile("b.jpg", 7000)];
    const out = path.join(dir, "out.zip");

    await writeZip(sources, out, { signal: signal(), zip64Threshold: 10_000 });

    expect(hasZip64End(fs.readFileSync(out))).toBe(true);
    const entries = await readZip(out);
    expect(entries.map((e) => [e.name, e.crc32])).toEqual(sources.map((s) => [s.name, crc32(s.bytes)]));
    expect(await unzipTest(out)).toMatch(/No errors detected/);
  });

  it("fails on a missing source and removes what it had written", async () => {
    const sources = [
      sourceFile("a.jpg", 2 * 1024 * 1024),
      { file: path.join(dir, "gone.bin"), name: "gone.jpg", size: 10, date: new Date() },
    ];
    const out = path.join(dir, "out.zip");

    await expect(writeZip(sources, out, { signal: signal() })).rejects.toMatchObject({ code: "ENOENT" });
    expect(fs.existsSync(out)).toBe(false);
  });

  it("stops when aborted and removes the partial file", async () => {
    const sources = Array.from({ length: 20 }, (_, i) => sourceFile(`${i}.jpg`, 512 * 1024));
    const out = path.join(dir, "out.zip");
    const controller = new AbortController();
    let read = 0;

    const writing = writeZip(sources, out, {
      signal: controller.signal,
      onBytes: (n) => {
        read += n;
        if (read >= 2 * 1024 * 1024) controller.abort(new Error("stop"));
      },
    });

    await expect(writing).rejects.toThrow("stop");
    expect(fs.existsSync(out)).toBe(false);
    expect(read).toBeLessThan(20 * 512 * 1024);
  });

  it("stores a file's real bytes when the size on record is out of date, larger or smaller", async () => {
    const grown = sourceFile("grown.jpg", 300 * 1024);
    const shrunk = sourceFile("shrunk.jpg", 200 * 1024);
    const sources = [
      { ...grown, size: 100 * 1024 },
      { ...shrunk, size: 250 * 1024 },
    ];
    const out = path.join(dir, "out.zip");

    await writeZip(sources, out, { signal: signal() });

    const entries = await readZip(out);
    expect(entries.map((e) => [e.name, e.size, e.crc32])).toEqual([
      ["grown.jpg", grown.bytes.length, crc32(grown.bytes)],
      ["shrunk.jpg", shrunk.bytes.length, crc32(shrunk.bytes)],
    ]);
  });

  it("closes every file it read ahead when a later one fails or the build is aborted", async () => {
    const openInDir = () =>
      fs.readdirSync("/proc/self/fd").filter((fd) => {
        try {
          return fs.readlinkSync(`/proc/self/fd/${fd}`).startsWith(dir);
        } catch {
          return false; // the descriptor readdir itself used
        }
      });
    const sources: ZipSource[] = Array.from({ length: 12 }, (_, i) => sourceFile(`${i}.jpg`, 64 * 1024));
    sources.splice(6, 0, { file: path.join(dir, "gone.bin"), name: "gone.jpg", size: 10, date: new Date() });

    await expect(writeZip(sources, path.join(dir, "a.zip"), { signal: signal() })).rejects.toMatchObject({
      code: "ENOENT",
    });
    await expect.poll(openInDir).toEqual([]);

    const controller = new AbortController();
    const writing = writeZip(sources.slice(7), path.join(dir, "b.zip"), {
      signal: controller.signal,
      onBytes: () => controller.abort(new Error("stop")),
    });
    await expect(writing).rejects.toThrow("stop");
    await expect.poll(openInDir).toEqual([]);
    expect(fs.existsSync(path.join(dir, "b.zip"))).toBe(false);
  });

  it("hands a photo's header fields on gathered, not one chunk each, and the ZIP stays whole", async () => {
    const sources = Array.from({ length: 200 }, (_, i) => sourceFile(`photo-${i}.jpg`, 4096 + i));
    const chunks: Buffer[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
    });
    const out = { stream, complete: async () => {}, abort: async () => {} };

    await writeZip(sources, out, { signal: signal() });

    // compress-commons writes about 35 fields a photo (local header, data descriptor, central record).
    expect(chunks.length).toBeLessThan(sources.length * 3);
    const file = path.join(dir, "gathered.zip");
    fs.writeFileSync(file, Buffer.concat(chunks));
    const entries = await readZip(file);
    expect(entries.map((e) => [e.name, e.size, e.crc32])).toEqual(sources.map((s) => [s.name, s.size, crc32(s.bytes)]));
    expect(await unzipTest(file)).toMatch(/No errors detected/);
  });

  it("reuses its read buffers for photos smaller than a header field, whose bytes are never gathered", async () => {
    const sources = Array.from({ length: 300 }, (_, i) => sourceFile(`tiny-${i}.jpg`, 200 + i));
    const before = process.memoryUsage().arrayBuffers;
    let most = 0;
    const onBytes = () => (most = Math.max(most, process.memoryUsage().arrayBuffers - before));
    const out = path.join(dir, "tiny.zip");

    await writeZip(sources, out, { signal: signal(), onBytes });

    // Gathered, a tiny photo's buffer never came back to the pool: about 100 MB more here.
    expect(most).toBeLessThan(64 * 1024 * 1024);
    const entries = await readZip(out);
    expect(entries.map((e) => [e.name, e.crc32])).toEqual(sources.map((s) => [s.name, crc32(s.bytes)]));
  });

  it("never overwrites an existing file", async () => {
    const out = path.join(dir, "out.zip");
    fs.writeFileSync(out, "keep me");
    await expect(writeZip([sourceFile("a.jpg", 10)], out, { signal: signal() })).rejects.toMatchObject({
      code: "EEXIST",
    });
    expect(fs.readFileSync(out, "utf8")).toBe("keep me");
  });
});

describe("pooled file streams", () => {
  it("copy a file exactly while reusing a handful of buffers", async () => {
    const source = sourceFile("big", 20 * 1024 * 1024 + 5);
    const out = path.join(dir, "copy.bin");
    const pool = new BufferPool(1024 * 1024);
    const pushed = new PushedLengths();

    await pipeline(new PooledFileReader(source.file, pool, pushed), new PooledFileWriter(out, pool, pushed));

    expect(fs.readFileSync(out).equals(source.bytes)).toBe(true);
    expect(pool.allocations).toBeLessThanOrEqual(8);
  });

  it("close a reader destroyed mid-read once that read has ended, and take its buffer back", async () => {
    const source = sourceFile("mid", 4 * 1024 * 1024);
    const pool = new BufferPool(1024 * 1024);
    const openFiles = () => fs.readdirSync("/proc/self/fd").length;
    const before = openFiles();
    const reader = new PooledFileReader(source.file, pool, new PushedLengths(), source.size);
    await new Promise((resolve) => reader.once("readable", resolve));
    // Taking the first chunk starts the next read; the reader is destroyed while it runs.
    expect(reader.read()).toHaveLength(1024 * 1024);
    const closed = new Promise((resolve) => reader.once("close", resolve));
    reader.destroy();
    await closed;
    expect(openFiles()).toBe(before);
    const allocated = pool.allocations;
    pool.take();
    expect(pool.allocations).toBe(allocated);
  });

  it("never recycles a buffer of which only part has been written", () => {
    const pool = new BufferPool(16);
    const pushed = new PushedLengths();
    const buffer = pool.take();
    pushed.set(buffer, 16);
    pool.written(buffer.subarray(0, 8), pushed.get);
    pool.written(buffer.subarray(8), pushed.get);
    expect(pool.take()).not.toBe(buffer);
    pool.written(buffer, pushed.get);
    expect(pool.take()).toBe(buffer);
  });
});

describe("zipEntryNames", () => {
  const names = (...originals: string[]) =>
    zipEntryNames(originals.map((originalName) => ({ originalName, mimeType: "image/png" })));

  it("keeps plain names and strips folders written with either slash", () => {
    expect(names("x.png", "a/b/y.png", "C:\\photos\\z.png")).toEqual(["x.png", "y.png", "z.png"]);
  });

  it("numbers clashes before the extension, ignoring case, and skips numbers already taken", () => {
    expect(names("a.png", "A.png", "a.PNG", "a (1).png")).toEqual(["a.png", "A (2).png", "a (3).PNG", "a (1).png"]);
    expect(names("archive.tar.gz", "archive.tar.gz")).toEqual(["archive.tar.gz", "archive.tar (1).gz"]);
    expect(names(".hidden", ".hidden")).toEqual([".hidden", ".hidden (1)"]);
  });

  it("gives empty, dot and folder-only names a fallback from the file type", () => {
    expect(names("", ".", "..", "dir/", "   ")).toEqual([
      "photo-1.png",
      "photo-2.png",
      "photo-3.png",
      "photo-4.png",
      "photo-5.png",
    ]);
  });

  it("replaces characters that Windows refuses, so every client unpacks the same names", () => {
    expect(names('a:b*c?"d<e>f|g\u0001.png', "trailing. ")).toEqual(["a_b_c__d_e_f_g_.png", "trailing"]);
  });
});
