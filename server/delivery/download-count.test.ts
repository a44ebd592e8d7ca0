import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import request from "supertest";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { insertAttachmentRow, insertProjectRow } from "../test/rows";
import { recordingsSettled } from "../activity/activity.service";
import { until } from "../test/wait";
import { storesOf } from "../storage/stores";
import { writeStored } from "../test/stored-files";
import { recordPublishEvents } from "../publish/test-fixtures";
import { downloadsOf, locate, type PublishedDelivery } from "./test-fixtures";

/**
 * Real HTTP over loopback, with real Range requests and a real hang-up: a ZIP of 24 MiB, far more
 * than the socket buffers hold, so a client that stops reading has not been sent the whole file.
 */
let t: TestApp;
let staff: TestUser;
let server: http.Server;
let base: string;
const PART = 8 * 1024 * 1024;

beforeAll(async () => {
  t = await createTestApp();
  staff = await createUser(t.ctx);
  server = http.createServer(t.app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

async function bigDelivery(): Promise<PublishedDelivery & { size: number }> {
  const id = await insertProjectRow(t.ctx, { name: "Big" });
  for (let i = 0; i < 3; i++) {
    const storageKey = `${id}/${crypto.randomBytes(12).toString("base64url")}.jpg`;
    await writeStored(t.ctx, storageKey, crypto.randomBytes(PART));
    await insertAttachmentRow(t.ctx, id, { originalName: `part-${i}.jpg`, storageKey, size: PART });
  }
  const events = recordPublishEvents(t.ctx, id);
  expect((await request(t.app).post(`/api/projects/${id}/publish`).set(staff.auth)).status).toBe(202);
  await events.next("publish_completed", 60_000);
  events.stop();
  const d = await locate(t, id);
  return { ...d, size: (await storesOf(t.ctx.config).published.stat(d.zipKey))!.size };
}

interface Fetched {
  status: number;
  bytes: number;
}

/** GET with optional headers; `stopAfter` hangs up once that many body bytes have arrived. */
function fetchBytes(url: string, headers: Record<string, string> = {}, stopAfter = Infinity): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}${url}`, { headers: { "User-Agent": "test-downloader", ...headers } }, (res) => {
      let bytes = 0;
      res.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes >= stopAfter) {
          req.destroy();
          resolve({ status: res.statusCode!, bytes });
        }
      });
      res.on("end", () => resolve({ status: res.statusCode!, bytes }));
      res.on("error", () => resolve({ status: res.statusCode!, bytes }));
    });
    req.on("error", (err) => (req.destroyed ? undefined : reject(err)));
  });
}

const downloads = (id: number) => downloadsOf(t, id);
/** Every ZIP response has closed and its count, if any, is written (the server counts a response when it closes, a moment after the client has its bytes). */
const settle = () => recordingsSettled(t.ctx);

describe("download figures", () => {
  it("counts one full download, with its time, and nothing for HEAD or a part", async () => {
    const d = await bigDelivery();
    expect((await fetchBytes(`${d.page}/all.zip`)).bytes).toBe(d.size);
    await until(
      () => downloads(d.id),
      (n) => n === 1,
    );
    const row = await t.ctx.db("projects").where({ id: d.id }).first();
    expect(Date.now() - new Date(row.delivery_last_download_at).getTime()).toBeLessThan(60_000);
    await new Promise<void>((resolve) =>
      http.request(`${base}${d.zipUrl}`, { method: "HEAD" }, (res) => (res.resume(), resolve())).end(),
    );
    expect((await fetchBytes(d.zipUrl, { Range: "bytes=0-99" })).status).toBe(206);
    await settle();
    expect(await downloads(d.id)).toBe(1);
  });

  it("counts a download cut off and resumed with a Range request once, when the last byte goes out", async () => {
    const d = await bigDelivery();
    const first = await fetchBytes(d.zipUrl, {}, 1024 * 1024);
    expect(first.status).toBe(200);
    expect(first.bytes).toBeLessThan(d.size);
    await settle();
    expect(await downloads(d.id)).toBe(0);
    const rest = await fetchBytes(d.zipUrl, { Range: `bytes=${first.bytes}-` });
    expect(rest).toEqual({ status: 206, bytes: d.size - first.bytes });
    await until(
      () => downloads(d.id),
      (n) => n >= 1,
    );
    await settle();
    expect(await downloads(d.id)).toBe(1);
  });

  it("counts a download manager's parallel, overlapping chunks once, whichever link each used", async () => {
    const d = await bigDelivery();
    const q = Math.floor(d.size / 4);
    const chunks = await Promise.all([
      fetchBytes(d.zipUrl, { Range: `bytes=0-${q + 1000}` }),
      fetchBytes(`${d.page}/all.zip`, { Range: `bytes=${q}-${2 * q}` }),
      fetchBytes(d.zipUrl, { Range: `bytes=${2 * q + 1}-${3 * q}` }),
      fetchBytes(`${d.page}/all.zip`, { Range: `bytes=${3 * q + 1}-` }),
    ]);
    expect(chunks.map((c) => c.status)).toEqual([206, 206, 206, 206]);
    await until(
      () => downloads(d.id),
      (n) => n >= 1,
    );
    await settle();
    expect(await downloads(d.id)).toBe(1);
  });

  it("counts a second full download again, and does not join halves fetched by two different browsers", async () => {
    const d = await bigDelivery();
    await fetchBytes(d.zipUrl);
    await fetchBytes(d.zipUrl);
    await until(
      () => downloads(d.id),
      (n) => n === 2,
    );
    const half = Math.floor(d.size / 2);
    await fetchBytes(d.zipUrl, { Range: `bytes=0-${half}`, "User-Agent": "browser-a" });
    await fetchBytes(d.zipUrl, { Range: `bytes=${half + 1}-`, "User-Agent": "browser-b" });
    await settle();
    expect(await downloads(d.id)).toBe(2);
  });

  it("announces each counted download as a project change, so the studio's figures move live", async () => {
    const d = await bigDelivery();
    const seen: number[] = [];
    const stop = t.ctx.events.onResourceChanged((c) => c.resource === "projects" && seen.push(...(c.ids as number[])));
    await fetchBytes(d.zipUrl);
    await until(
      () => seen.filter((id) => id === d.id).length,
      (n) => n === 1,
    );
    stop();
    const project = (await request(t.app).get(`/api/projects/${d.id}`).set(staff.auth)).body;
    expect(project.delivery).toMatchObject({ downloads: 1, lastDownloadAt: expect.any(String) });
  });
});
