import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import request from "supertest";
import pino from "pino";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { removeStaleTempFiles, sweepStaleTempFiles } from "../storage/paths";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { insertProjectRow } from "../test/rows";
import { makeImage, makeNoisyJpeg } from "./test-fixtures";
import { storedUploads } from "../test/stored-files";
import { MAX_FILES_PER_REQUEST } from "./upload-receiver";
import { renditionQueue } from "./renditions.service";

let t: TestApp;
let user: TestUser;
let server: http.Server;
let port: number;
let projectId: number;
let renditionsHeld: () => void;
const unhandled: unknown[] = [];
const recordUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(async () => {
  t = await createTestApp();
  user = await createUser(t.ctx);
  server = http.createServer(t.app).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  port = (server.address() as net.AddressInfo).port;
  process.on("unhandledRejection", recordUnhandled);
  // The photos accepted here would otherwise get thumbnails and previews in idle time, between one
  // test's count of the files and its check that an aborted upload added none.
  renditionsHeld = renditionQueue(t.ctx).uploadStarted();
});
afterAll(async () => {
  renditionsHeld();
  process.off("unhandledRejection", recordUnhandled);
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});
beforeEach(async () => {
  projectId = await insertProjectRow(t.ctx);
  unhandled.length = 0;
});

const uploads = () => storedUploads(t.ctx);
const rowsOf = (id: number) => t.ctx.db("attachments").where({ project_id: id });
const tempRoot = () => path.join(t.ctx.config.uploadsDir, ".tmp");
const openTempFiles = () =>
  fs
    .readdirSync("/proc/self/fd")
    .map((fd) => {
      try {
        return fs.readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return "";
      }
    })
    .filter((target) => target.startsWith(tempRoot()));

/** Starts a raw upload whose Content-Length promises more than `body`, so the server waits for the rest. */
function startUpload(route: "upload" | "upload-multiple", boundary: string, body: Buffer): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.write(
        `POST /api/attachments/projects/${projectId}/${route} HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${user.token}\r\n` +
          `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${body.length + 1000}\r\n\r\n`,
      );
      socket.write(body, () => resolve(socket));
    });
    // Before it is sent, a socket error fails the upload; after, the test cuts the connection itself and
    // a late ECONNRESET from either side is expected, not an error of whichever test runs by then.
    socket.on("error", reject);
  });
}

function manySmallParts(count: number): Buffer {
  let body = "";
  for (let i = 0; i < count; i++)
    body += `--b0undary\r\nContent-Disposition: form-data; name="files"; filename="p${i}.jpg"\r\nContent-Type: image/jpeg\r\n\r\n${"a".repeat(50)}\r\n`;
  return Buffer.from(body);
}

/** No row in the project, and UPLOADS_DIR (temp folder included) as it was before the upload. */
async function expectNothingLeft(before: string[]) {
  await vi.waitFor(
    async () => {
      expect(await uploads()).toEqual(before);
      if (fs.existsSync("/proc/self/fd")) expect(openTempFiles()).toEqual([]);
    },
    { timeout: 5000, interval: 50 },
  );
  expect(await rowsOf(projectId)).toEqual([]);
}

describe("a client that goes away mid-upload", () => {
  it("leaves no row, no file and no open temp file when one upload stops mid-file", async () => {
    const before = await uploads();
    const photo = await makeNoisyJpeg(400, 300);
    const head = Buffer.from(`--b0undary\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\n\r\n`);
    const socket = await startUpload("upload", "b0undary", Buffer.concat([head, photo.subarray(0, photo.length / 2)]));
    try {
      // Under a loaded CI machine the server may take seconds to reach the file part.
      await vi.waitFor(async () => expect((await uploads()).some((f) => f.startsWith(".tmp/"))).toBe(true), {
        timeout: 15_000,
        interval: 20,
      });
    } finally {
      socket.destroy();
    }
    await expectNothingLeft(before);
  });

  // A hundred aborted 200-part uploads: 10–12 s on a quiet machine, past the default 20 s at a load of 4.
  it("survives multi-file uploads cut off while their temp files are being opened, and keeps nothing", async () => {
    const before = await uploads();
    const body = manySmallParts(MAX_FILES_PER_REQUEST);
    const receiving = () => fs.existsSync(tempRoot()) && fs.readdirSync(tempRoot()).length > 0;
    for (let attempt = 0; attempt < 100; attempt++) {
      const socket = await startUpload("upload-multiple", "b0undary", body);
      // Cut off the moment the server has started on the parts, while their files are still opening.
      while (!receiving()) await new Promise((resolve) => setImmediate(resolve));
      socket.resetAndDestroy();
      await vi.waitFor(() => expect(receiving()).toBe(false), { timeout: 5000, interval: 5 });
    }

    await expectNothingLeft(before);
    expect(unhandled).toEqual([]);
    const other = await insertProjectRow(t.ctx);
    const after = await request(server)
      .post(`/api/attachments/projects/${other}/upload`)
      .set(user.auth)
      .attach("file", await makeImage("jpeg"), "a.jpg");
    expect(after.status).toBe(201);
  }, 60_000);

  it("keeps nothing when the client is gone before its upload is read", async () => {
    const before = await uploads();
    // Holding every database connection (sqlite's one) stops the request at its project check, before the upload is read.
    const pool = (t.ctx.db.client as { pool: { max: number; numPendingAcquires(): number } }).pool;
    const held = await Promise.all(Array.from({ length: pool.max }, () => t.ctx.db.transaction()));
    try {
      const accepted = new Promise<net.Socket>((resolve) => server.once("connection", resolve));
      const socket = await startUpload("upload-multiple", "b0undary", manySmallParts(150));
      const serverSide = await accepted;
      await vi.waitFor(() => expect(pool.numPendingAcquires()).toBeGreaterThan(0));
      socket.resetAndDestroy();
      // The server has seen the client go while the request still waits for a connection.
      // (Not events.once: it rejects on the socket's ECONNRESET, which comes before its close.)
      if (!serverSide.destroyed) await new Promise((resolve) => serverSide.once("close", resolve));
      expect(pool.numPendingAcquires()).toBeGreaterThan(0);
    } finally {
      await Promise.all(held.map((trx) => trx.commit()));
    }
    // Queued behind the cut-off request on that connection: once it answers, that one is past its checks.
    expect((await request(server).get("/api/attachments").set(user.auth)).status).toBe(200);
    await expectNothingLeft(before);
  });

  it("keeps nothing when a multi-file upload stops in the middle of a later file", async () => {
    const before = await uploads();
    const photo = await makeNoisyJpeg(300, 200);
    const part = (name: string, bytes: Buffer) =>
      Buffer.concat([
        Buffer.from(`--b0undary\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\n\r\n`),
        bytes,
        Buffer.from("\r\n"),
      ]);
    const body = Buffer.concat([
      part("one.jpg", photo),
      part("two.jpg", photo),
      part("three.jpg", photo).subarray(0, 200 + photo.length / 2),
    ]);
    const socket = await startUpload("upload-multiple", "b0undary", body);
    await vi.waitFor(async () => expect((await uploads()).filter((f) => f.startsWith(".tmp/")).length).toBe(3));
    socket.destroy();
    await expectNothingLeft(before);
  });
});

describe("leftovers of an earlier process", () => {
  let stopSweeping: (() => void) | undefined;
  afterEach(() => stopSweeping?.());

  function makeReceiveFolder(name: string, ageMs: number): string {
    const dir = path.join(tempRoot(), name);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "part-0"), "partial upload");
    const at = new Date(Date.now() - ageMs);
    fs.utimesSync(dir, at, at);
    return dir;
  }

  it("removes receive folders untouched for an hour and keeps recent ones", async () => {
    const stale = makeReceiveFolder("stale", 2 * 3600_000);
    const recent = makeReceiveFolder("recent", 0);

    expect(await removeStaleTempFiles(t.ctx.config, 3600_000)).toBe(1);
    expect(fs.existsSync(stale)).toBe(false);
    expect(fs.existsSync(path.join(recent, "part-0"))).toBe(true);
    fs.rmSync(recent, { recursive: true });
  });

  it("sweeps stale receive folders periodically until stopped", async () => {
    const logger = pino({ level: "silent" });
    const first = makeReceiveFolder("first", 2 * 3600_000);
    stopSweeping = sweepStaleTempFiles(t.ctx.config, logger, 20, 3600_000);
    await vi.waitFor(() => expect(fs.existsSync(first)).toBe(false));

    stopSweeping();
    // The quiet proved: a sweeper on the same interval, started after the stop and sparing folders under
    // three hours old, sweeps twice after `second` is made; every tick of the stopped one would have come
    // due before its. `second` is made after its first sweep, when a sweep the stopped one had under way
    // at the stop (stopping clears the timer, not a sweep running) is over.
    stopSweeping = sweepStaleTempFiles(t.ctx.config, logger, 20, 3 * 3600_000);
    const swept = async (marker: string) => {
      const dir = makeReceiveFolder(marker, 4 * 3600_000);
      await vi.waitFor(() => expect(fs.existsSync(dir)).toBe(false));
    };
    await swept("marker-0");
    const second = makeReceiveFolder("second", 2 * 3600_000);
    for (const marker of ["marker-1", "marker-2"]) await swept(marker);
    expect(fs.existsSync(second)).toBe(true);
    fs.rmSync(second, { recursive: true });
  });
});
