import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config";
import { startS3Server, type TestS3Server } from "../test/s3-server";
import { filesUnder } from "../test/stored-files";
import { DiskStore } from "./disk-store";
import { migrateObjects } from "./migrate";
import { readAll, type ObjectStore } from "./object-store";
import { PART_SIZE } from "./s3-store";
import { openStores } from "./stores";

let s3: TestS3Server;
let dir: string;
beforeAll(async () => {
  s3 = await startS3Server();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-migrate-"));
});
afterAll(async () => {
  await s3?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const sha256 = (bytes: Buffer) => crypto.createHash("sha256").update(bytes).digest("hex");

/** A fresh prefix in the test bucket: its uploads store. */
const freshBucket = async () =>
  (await openStores(loadConfig(s3.env(`m-${crypto.randomBytes(6).toString("hex")}`)))).uploads;

/** A folder laid out as UPLOADS_DIR is, with what the server leaves beside the files: receive folders, a `.part`. */
function uploadsFolder(files: Record<string, Buffer>): { root: string; store: DiskStore } {
  const root = fs.mkdtempSync(path.join(dir, "uploads-"));
  for (const [key, bytes] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, key)), { recursive: true });
    fs.writeFileSync(path.join(root, key), bytes);
  }
  fs.mkdirSync(path.join(root, ".tmp/receiving"), { recursive: true });
  fs.writeFileSync(path.join(root, ".tmp/receiving/half.jpg"), "half an upload");
  fs.mkdirSync(path.join(root, "1"), { recursive: true });
  fs.writeFileSync(path.join(root, "1/building.jpg.part"), "part of a file");
  return { root, store: new DiskStore(root, path.join(root, ".tmp")) };
}

const photos = () => ({
  "1/0123456789abcdef0123456789abcdef.jpg": crypto.randomBytes(300_000),
  "1/0123456789abcdef0123456789abcdef.thumb.webp": crypto.randomBytes(20_000),
  "1/0123456789abcdef0123456789abcdef.preview.jpg": crypto.randomBytes(90_000),
  "2/fedcba9876543210fedcba9876543210.jpg": crypto.randomBytes(1_000),
  "studio/00112233445566778899aabbccddeeff.webp": crypto.randomBytes(5_000),
});

async function objectsOf(store: ObjectStore): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for await (const o of store.list("")) found[o.key] = sha256(await readAll(await store.get(o.key)));
  return found;
}

const hashes = (files: Record<string, Buffer>) =>
  Object.fromEntries(Object.entries(files).map(([key, bytes]) => [key, sha256(bytes)]));

describe("storage migration", () => {
  it("copies every file of the folders into a fresh prefix, each object with the file's SHA-256, and not the receive folders or .part files", async () => {
    const files = photos();
    const { store: disk } = uploadsFolder(files);
    const bucket = await freshBucket();

    const summary = await migrateObjects(disk, bucket);

    expect(summary.counts).toMatchObject({ copied: 5, present: 0, failed: 0 });
    expect(summary.copiedBytes).toBe(416_000);
    expect(await objectsOf(bucket)).toEqual(hashes(files));
    // Recorded with the object, so a later run need not download it to compare.
    const key = "1/0123456789abcdef0123456789abcdef.jpg";
    expect((await bucket.stat(key))?.sha256).toBe(sha256(files[key]));
  });

  it("copies a file larger than a multipart part, its checksum recorded too", async () => {
    const big = crypto.randomBytes(PART_SIZE + 100_000);
    const { store: disk } = uploadsFolder({ "3/big.jpg": big });
    const bucket = await freshBucket();

    expect((await migrateObjects(disk, bucket)).counts.copied).toBe(1);

    expect(sha256(await readAll(await bucket.get("3/big.jpg")))).toBe(sha256(big));
    expect((await bucket.stat("3/big.jpg"))?.sha256).toBe(sha256(big));
  });

  it("copies nothing on a second run: every object is already there", async () => {
    const { store: disk } = uploadsFolder(photos());
    const bucket = await freshBucket();
    await migrateObjects(disk, bucket);

    const again = await migrateObjects(disk, bucket);

    expect(again.counts).toMatchObject({ copied: 0, present: 5, failed: 0 });
    expect(again.copiedBytes).toBe(0);
  });

  it("copies again an object whose bytes differ from the file (same size) and one cut short, and a file added since", async () => {
    const files = photos();
    const { root, store: disk } = uploadsFolder(files);
    const bucket = await freshBucket();
    await migrateObjects(disk, bucket);
    const damaged = "1/0123456789abcdef0123456789abcdef.jpg";
    const partial = "1/0123456789abcdef0123456789abcdef.preview.jpg";
    await bucket.put(damaged, Readable.from([crypto.randomBytes(300_000)]));
    await bucket.put(partial, Readable.from([files[partial].subarray(0, 1000)]));
    const added = crypto.randomBytes(4_000);
    fs.writeFileSync(path.join(root, "2/added.jpg"), added);

    const again = await migrateObjects(disk, bucket);

    expect(again.counts).toMatchObject({ copied: 3, present: 3, failed: 0 });
    expect(await objectsOf(bucket)).toEqual(hashes({ ...files, "2/added.jpg": added }));
  });

  it("writes nothing in a dry run, and says what it would copy", async () => {
    const files = photos();
    const { store: disk } = uploadsFolder(files);
    const bucket = await freshBucket();
    const wouldCopy: string[] = [];

    const summary = await migrateObjects(disk, bucket, {
      dryRun: true,
      onResult: (r) => r.outcome === "would-copy" && wouldCopy.push(r.key),
    });

    expect(summary.counts).toMatchObject({ "would-copy": 5, copied: 0 });
    expect(wouldCopy.sort()).toEqual(Object.keys(files).sort());
    expect(await objectsOf(bucket)).toEqual({});
    const empty = fs.mkdtempSync(path.join(dir, "empty-"));
    await migrateObjects(bucket, new DiskStore(empty), { dryRun: true });
    expect(filesUnder(empty)).toEqual([]);
  });

  it("copies the objects back into an empty folder as identical files, then none on a second run", async () => {
    const files = photos();
    const { store: disk } = uploadsFolder(files);
    const bucket = await freshBucket();
    await migrateObjects(disk, bucket);
    const back = fs.mkdtempSync(path.join(dir, "back-"));
    const store = new DiskStore(back, path.join(back, ".tmp"));

    expect((await migrateObjects(bucket, store)).counts).toMatchObject({ copied: 5, failed: 0 });

    expect(filesUnder(back)).toEqual(Object.keys(files).sort());
    for (const [key, bytes] of Object.entries(files))
      expect(fs.readFileSync(path.join(back, key)).equals(bytes)).toBe(true);
    expect((await migrateObjects(bucket, store)).counts).toMatchObject({ copied: 0, present: 5 });
  });

  it("counts a file deleted after the listing as gone, not failed", async () => {
    const files = photos();
    const { root, store: disk } = uploadsFolder(files);
    const bucket = await freshBucket();
    const last = Object.keys(files).sort().at(-1)!;

    const summary = await migrateObjects(disk, bucket, {
      concurrency: 1,
      onResult: (_result, progress) => progress.doneFiles === 1 && fs.rmSync(path.join(root, last)),
    });

    expect(summary.counts).toMatchObject({ copied: 4, gone: 1, failed: 0 });
    expect(await bucket.stat(last)).toBeUndefined();
  });
});
