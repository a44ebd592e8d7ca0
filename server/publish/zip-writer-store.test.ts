import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Readable } from "node:stream";
import { loadConfig } from "../config";
import { DiskStore } from "../storage/disk-store";
import { readAll, type ObjectStore } from "../storage/object-store";
import { openStores } from "../storage/stores";
import { startS3Server, type TestS3Server } from "../test/s3-server";
import { keysIn } from "../test/stored-files";
import { crc32, readZip, unzipTest } from "./test-fixtures";
import { writeZip } from "./zip-writer";

/**
 * writeZip reading its sources from a store and writing into an ObjectWriter, as a build does in
 * object storage: against the disk store and against s3rver, the same cases.
 */
let dir: string;
let s3: TestS3Server;
const stores: Record<string, { sources: ObjectStore; output: ObjectStore }> = {};

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-zip-store-"));
  s3 = await startS3Server();
  stores.disk = { sources: new DiskStore(path.join(dir, "uploads")), output: new DiskStore(path.join(dir, "out")) };
  const bucket = await openStores(loadConfig(s3.env("zip")));
  stores.s3 = { sources: bucket.uploads, output: bucket.published };
}, 60_000);
afterAll(async () => {
  await s3?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function stored(store: ObjectStore, name: string, size: number) {
  const bytes = crypto.randomBytes(size);
  const key = `1/${crypto.randomBytes(8).toString("hex")}.jpg`;
  await store.put(key, Readable.from([bytes]));
  return { file: key, name, size, date: new Date("2026-05-01T10:00:00Z"), bytes };
}

describe.each(["disk", "s3"])("writeZip from and into the %s store", (kind) => {
  it("stores every source byte for byte, counting the bytes read, and completes the object once whole", async () => {
    const { sources: from, output } = stores[kind];
    const sources = [await stored(from, "a.jpg", 9 * 1024 * 1024 + 5), await stored(from, "b.jpg", 0)];
    let read = 0;
    const writer = output.createWriter("whole.zip");

    await writeZip(sources, writer, {
      signal: new AbortController().signal,
      onBytes: (n) => (read += n),
      readFrom: from,
    });

    expect(read).toBe(9 * 1024 * 1024 + 5);
    const file = path.join(dir, `${kind}-whole.zip`);
    fs.writeFileSync(file, await readAll(await output.get("whole.zip")));
    const entries = await readZip(file);
    expect(entries.map((e) => [e.name, e.size, e.crc32])).toEqual(sources.map((s) => [s.name, s.size, crc32(s.bytes)]));
    expect(await unzipTest(file)).toMatch(/No errors detected/);
  });

  it("aborts the object when a source is missing, naming its key, and leaves nothing", async () => {
    const { sources: from, output } = stores[kind];
    const present = await stored(from, "a.jpg", 9 * 1024 * 1024);
    const sources = [present, { ...present, file: "1/gone.jpg", name: "gone.jpg" }];
    const before = await keysIn(output);

    const failure = writeZip(sources, output.createWriter("failed.zip"), {
      signal: new AbortController().signal,
      readFrom: from,
    });

    await expect(failure).rejects.toMatchObject({ code: "ENOENT", path: "1/gone.jpg" });
    expect(await keysIn(output)).toEqual(before);
  });

  it("aborts the object when the signal is aborted mid-way, past its first part", async () => {
    const { sources: from, output } = stores[kind];
    const sources = [await stored(from, "a.jpg", 9 * 1024 * 1024), await stored(from, "b.jpg", 9 * 1024 * 1024)];
    const controller = new AbortController();
    const before = await keysIn(output);
    let read = 0;

    const cancelled = writeZip(sources, output.createWriter("cancelled.zip"), {
      signal: controller.signal,
      readFrom: from,
      onBytes: (n) => {
        read += n;
        if (read > 12 * 1024 * 1024) controller.abort(new Error("cancelled"));
      },
    });

    await expect(cancelled).rejects.toThrow("cancelled");
    expect(await keysIn(output)).toEqual(before);
  });
});
