import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config";
import { createContext, StartupError } from "../bootstrap";
import { createLogger } from "../logger";
import { startS3Server, type TestS3Server } from "../test/s3-server";
import { keysIn } from "../test/stored-files";
import { until } from "../test/wait";
import { DiskStore } from "./disk-store";
import { readAll, StorageNotFoundError, type ObjectStore } from "./object-store";
import { PART_SIZE } from "./s3-store";
import { openStores, storageProblem } from "./stores";

let s3: TestS3Server;
let dir: string;
beforeAll(async () => {
  s3 = await startS3Server();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-store-"));
});
afterAll(async () => {
  await s3?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The bucket's multipart uploads in progress of objects named `name` (every store here has a prefix of its own). */
const inProgress = (name: string) => s3.uploadsInProgress().filter((key) => key.endsWith(`/${name}`));

/** The same behaviour asked of both stores: the folders and a bucket. */
const kinds: Array<[string, () => Promise<ObjectStore>]> = [
  ["disk", async () => new DiskStore(fs.mkdtempSync(path.join(dir, "root-")), path.join(dir, "tmp"))],
  ["s3", async () => (await openStores(loadConfig(s3.env(`t-${crypto.randomBytes(6).toString("hex")}`)))).uploads],
];

describe.each(kinds)("%s object store", (kind, makeStore) => {
  it("stores a stream and answers it whole, a byte range of it, and its size", async () => {
    const store = await makeStore();
    const bytes = crypto.randomBytes(300_000);
    await store.put("7/a.jpg", Readable.from([bytes]), { contentType: "image/jpeg" });
    expect((await readAll(await store.get("7/a.jpg"))).equals(bytes)).toBe(true);
    expect((await readAll(await store.get("7/a.jpg", { start: 10, end: 19 }))).equals(bytes.subarray(10, 20))).toBe(
      true,
    );
    expect((await store.stat("7/a.jpg"))?.size).toBe(bytes.length);
  });

  it("keeps a SHA-256 given with put where it can (S3 metadata), in a single PUT and a multipart upload", async () => {
    const store = await makeStore();
    const small = "a".repeat(64);
    const big = "b".repeat(64);
    await store.put("7/small.jpg", Readable.from([Buffer.from("x")]), { sha256: small });
    await store.put("7/big.jpg", Readable.from([crypto.randomBytes(PART_SIZE + 1)]), { sha256: big });
    const expected = store.kind === "s3" ? [small, big] : [undefined, undefined];
    expect([(await store.stat("7/small.jpg"))?.sha256, (await store.stat("7/big.jpg"))?.sha256]).toEqual(expected);
  });

  it("answers no object for a key never stored: stat undefined, get StorageNotFoundError", async () => {
    const store = await makeStore();
    expect(await store.stat("1/none.jpg")).toBeUndefined();
    await expect(store.get("1/none.jpg")).rejects.toBeInstanceOf(StorageNotFoundError);
  });

  it("moves a local file in, lists by prefix, removes keys and a whole prefix", async () => {
    const store = await makeStore();
    for (const key of ["1/a.jpg", "1/b.jpg", "2/c.jpg"]) {
      const file = path.join(dir, `in-${crypto.randomBytes(4).toString("hex")}`);
      fs.writeFileSync(file, key);
      await store.moveFileIn(key, file);
      expect(fs.existsSync(file)).toBe(false);
    }
    expect(await keysIn(store)).toEqual(["1/a.jpg", "1/b.jpg", "2/c.jpg"]);
    expect(await keysIn(store, "1/")).toEqual(["1/a.jpg", "1/b.jpg"]);
    await store.remove("1/a.jpg", "1/gone.jpg");
    expect(await keysIn(store)).toEqual(["1/b.jpg", "2/c.jpg"]);
    await store.removePrefix("2/");
    expect(await keysIn(store)).toEqual(["1/b.jpg"]);
  });

  it("builds an object of several parts that appears only once complete", async () => {
    const store = await makeStore();
    const writer = store.createWriter("big.zip");
    const part = crypto.randomBytes(1024 * 1024);
    const parts = Math.ceil((PART_SIZE * 1.5) / part.length);
    await pipeline(
      Readable.from(
        (function* () {
          for (let i = 0; i < parts; i++) yield part;
        })(),
      ),
      writer.stream,
    );
    expect(await store.stat("big.zip")).toBeUndefined();
    if (kind === "s3")
      await until(
        () => inProgress("big.zip"),
        (keys) => keys.length === 1,
      );
    await writer.complete();
    expect(inProgress("big.zip")).toEqual([]);
    expect((await store.stat("big.zip"))?.size).toBe(parts * part.length);
    const tail = await readAll(
      await store.get("big.zip", { start: parts * part.length - 10, end: parts * part.length - 1 }),
    );
    expect(tail.equals(part.subarray(part.length - 10))).toBe(true);
  });

  it("leaves nothing of an aborted build or of a stream that failed mid-way, not even parts", async () => {
    const store = await makeStore();
    const writer = store.createWriter("half.zip");
    // Past one part, so that a multipart upload has begun and holds parts when it is aborted.
    for (let sent = 0; sent < PART_SIZE + 1024 * 1024; sent += 1024 * 1024)
      if (!writer.stream.write(crypto.randomBytes(1024 * 1024))) await once(writer.stream, "drain");
    if (kind === "s3")
      await until(
        () => inProgress("half.zip"),
        (keys) => keys.length === 1,
      );
    await writer.abort();
    expect(inProgress("half.zip")).toEqual([]);
    const failing = new Readable({
      read() {
        this.push(crypto.randomBytes(64 * 1024));
        this.destroy(new Error("source failed"));
      },
    });
    await expect(store.put("3/broken.jpg", failing)).rejects.toThrow("source failed");
    expect(await keysIn(store)).toEqual([]);
  });

  it("refuses a key that would leave its folder or prefix", async () => {
    const store = await makeStore();
    await expect(store.put("../escape", Readable.from([Buffer.from("x")]))).rejects.toThrow(/escapes/);
  });
});

describe("object storage at start", () => {
  it("names STORAGE_URL when the bucket does not exist", async () => {
    const config = loadConfig({ ...s3.env("p"), STORAGE_URL: "s3://no-such-bucket/p" });
    expect(await storageProblem(config)).toBe("The bucket no-such-bucket in STORAGE_URL does not exist");
  });

  it("names the key settings when the credentials are refused, never the secret", async () => {
    const config = loadConfig({
      ...s3.env("p"),
      S3_ACCESS_KEY_ID: "NOT-A-KEY",
      S3_SECRET_ACCESS_KEY: "wrong-secret-value",
    });
    const problem = await storageProblem(config);
    expect(problem).toBe("S3_ACCESS_KEY_ID/S3_SECRET_ACCESS_KEY were refused by the storage");
    expect(JSON.stringify(config)).not.toContain("wrong-secret-value");
  });

  it("stops the start with that message, before the database is opened", async () => {
    const config = loadConfig({
      ...s3.env("p"),
      STORAGE_URL: "s3://no-such-bucket/p",
      DATABASE_URL: path.join(dir, "never.sqlite3"),
      UPLOADS_DIR: path.join(dir, "start-uploads"),
      PUBLISHED_DIR: path.join(dir, "start-published"),
    });
    const failure = await createContext(config, createLogger("silent")).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(StartupError);
    expect((failure as Error).message).toBe("The bucket no-such-bucket in STORAGE_URL does not exist");
    expect(fs.existsSync(path.join(dir, "never.sqlite3"))).toBe(false);
  });

  it("accepts a bucket that exists with good credentials", async () => {
    expect(await storageProblem(loadConfig(s3.env("p")))).toBeUndefined();
  });

  it("refuses a STORAGE_URL that is no s3:// URL, and a key without its secret", () => {
    expect(() => loadConfig({ STORAGE_URL: "/var/photos" })).toThrow(/STORAGE_URL: must be s3:\/\//);
    expect(() => loadConfig({ STORAGE_URL: "s3://bucket", S3_ACCESS_KEY_ID: "k" })).toThrow(
      /S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together/,
    );
  });
});
