import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import path from "node:path";
import request from "supertest";
import { multipartFile } from "../test/binary-body";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeNoisyJpeg } from "../attachments/test-fixtures";
import { TestSocket } from "../events/test-socket";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { httpsAnswer, listenUpstream, selfSignedCertificate } from "../test/behind-proxy";
import { recordingsSettled } from "../activity/activity.service";
import { until } from "../test/wait";
import { startNginxOnFreePorts, type RunningNginx } from "../test/nginx";
import { dataFoldersAt, docsSite, upstreamAt } from "../test/docs-site";
import { uploadPath } from "../storage/paths";
import { groupId } from "../storage/file-modes";
import { downloadsOf, publishDelivery, type PublishedDelivery } from "./test-fixtures";

/**
 * The nginx site of docs/behind-nginx.md, as written, in front of a Photodrop started with
 * SENDFILE_HEADER=X-Accel-Redirect and TRUST_PROXY=1: a real nginx (Debian's nginx-light) over
 * HTTPS with a throwaway certificate; only its ports, certificate and folder are replaced.
 */

let t: TestApp;
let staff: TestUser;
let upstream: Awaited<ReturnType<typeof listenUpstream>>;
let app: http.Server;
let nginx: RunningNginx;
let base: string;
let plainBase: string;
let d: PublishedDelivery;

/** A request to nginx over HTTPS (the certificate is the test's own). */
function fetchVia(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return httpsAnswer(`${base}${url}`, { method: init.method ?? "GET", headers: init.headers }, init.body);
}

async function storedFile(kind: "storage_key" | "thumbnail_key", n: number): Promise<Buffer> {
  const rows = await t.ctx
    .db("attachments")
    .where({ project_id: d.id })
    .orderBy([{ column: "created_at" }, { column: "id" }])
    .select(kind);
  return fs.readFileSync(uploadPath(t.ctx.config, rows[n - 1][kind]));
}

/**
 * As docs/behind-nginx.md sets it up when the test can: nginx's workers as www-data, reading Photodrop's
 * files through DATA_GROUP=www-data, the folders above let through by that group. Otherwise
 * nginx runs as the test's own user.
 */
const wwwData = process.getuid?.() === 0 ? groupId("www-data") : undefined;

beforeAll(async () => {
  t = await createTestApp({
    SENDFILE_HEADER: "X-Accel-Redirect",
    TRUST_PROXY: "1",
    ...(wwwData === undefined ? {} : { DATA_GROUP: "www-data" }),
  });
  if (wwwData !== undefined) {
    fs.chownSync(t.dir, -1, wwwData);
    fs.chmodSync(t.dir, 0o750);
  }
  staff = await createUser(t.ctx);
  upstream = await listenUpstream(t);
  app = upstream.server;
  const dir = path.join(t.dir, "nginx");
  fs.mkdirSync(dir);
  const tls = selfSignedCertificate(dir, "photos.example.com");
  const started = await startNginxOnFreePorts(
    dir,
    2,
    ([httpPort, httpsPort]) =>
      docsSite([
        ...upstreamAt(`127.0.0.1:${upstream.port}`),
        ["listen 80;", `listen 127.0.0.1:${httpPort};`],
        ["listen 443 ssl http2;", `listen 127.0.0.1:${httpsPort} ssl http2;`],
        ["/etc/letsencrypt/live/photos.example.com/fullchain.pem", tls.cert],
        ["/etc/letsencrypt/live/photos.example.com/privkey.pem", tls.key],
        ...dataFoldersAt(t.ctx.config.uploadsDir, t.ctx.config.publishedDir),
      ]),
    { user: wwwData === undefined ? undefined : "www-data" },
  );
  nginx = started.nginx;
  const [httpPort, httpsPort] = started.ports;
  base = `https://127.0.0.1:${httpsPort}`;
  plainBase = `http://127.0.0.1:${httpPort}`;
  d = await publishDelivery(t, staff, { photoNames: ["one.jpg", "two.jpg", "three.jpg"], side: 640 });
}, 60_000);

afterAll(async () => {
  await nginx?.stop();
  await upstream?.close();
  await t.close();
});

describe("behind docs/behind-nginx.md's nginx site with SENDFILE_HEADER=X-Accel-Redirect", () => {
  it("sends a photo, a thumbnail and the ZIP through nginx, whole and in ranges", async () => {
    const photo = await fetchVia(`${d.page}/p/2`);
    expect(photo.status).toBe(200);
    expect(photo.headers["content-type"]).toBe("image/jpeg");
    expect(photo.headers["cache-control"]).toBe("private, no-cache");
    expect(photo.headers["x-accel-redirect"]).toBeUndefined();
    const bytes = await storedFile("storage_key", 2);
    expect(photo.body.equals(bytes)).toBe(true);
    const part = await fetchVia(`${d.page}/p/2`, { headers: { Range: "bytes=100-1099" } });
    expect(part.status).toBe(206);
    expect(part.headers["content-range"]).toBe(`bytes 100-1099/${bytes.length}`);
    expect(part.body.equals(bytes.subarray(100, 1100))).toBe(true);

    const thumb = await fetchVia(`${d.page}/t/3`);
    expect(thumb.status).toBe(200);
    expect(thumb.headers["content-type"]).toBe("image/webp");
    expect(thumb.body.equals(await storedFile("thumbnail_key", 3))).toBe(true);

    const zipBytes = fs.readFileSync(d.zipFile);
    const zip = await fetchVia(`${d.page}/all.zip`);
    expect(zip.status).toBe(200);
    expect(zip.headers["content-type"]).toBe("application/zip");
    expect(zip.body.equals(zipBytes)).toBe(true);
    const zipPart = await fetchVia(d.zipUrl, { headers: { Range: "bytes=-22" } });
    expect(zipPart.status).toBe(206);
    expect(zipPart.body.equals(zipBytes.subarray(zipBytes.length - 22))).toBe(true);
  });

  it("sends every file with the security headers Photodrop chose for the request, as its own answers carry them", async () => {
    // Photodrop's answer to what nginx asks for the same HTTPS request; nginx adds its own transfer headers.
    const own = new Set(["date", "connection", "keep-alive", "content-length", "etag", "x-accel-redirect"]);
    for (const url of [`${d.page}/p/1`, `${d.page}/t/2`, `${d.page}/all.zip`, d.zipUrl]) {
      const direct = await request(t.app)
        .get(url)
        .set({ "X-Forwarded-Proto": "https", "X-Forwarded-Host": "127.0.0.1" });
      expect(direct.headers["x-accel-redirect"], url).toBeDefined();
      expect(direct.headers["strict-transport-security"], url).toBeDefined();
      const proxied = await fetchVia(url);
      expect(proxied.status, url).toBe(200);
      for (const [name, value] of Object.entries(direct.headers))
        if (!own.has(name)) expect(proxied.headers[name], `${url} ${name}`).toBe(value);
      const part = await fetchVia(url, { headers: { Range: "bytes=0-9" } });
      expect(part.status, url).toBe(206);
      expect(part.headers["x-content-type-options"], url).toBe("nosniff");
      expect(part.headers["content-security-policy"], url).toBe(direct.headers["content-security-policy"]);
    }
  });

  it("hands photos and thumbnails over on one kept-alive connection from nginx, not one connection each", async () => {
    let opened = 0;
    const count = () => opened++;
    app.on("connection", count);
    try {
      for (let round = 0; round < 5; round++)
        for (const url of [`${d.page}/t/1`, `${d.page}/p/2`]) expect((await fetchVia(url)).status, url).toBe(200);
    } finally {
      app.off("connection", count);
    }
    // nginx keeps an upstream connection only when the answer's length says it had no body.
    expect(opened).toBeLessThanOrEqual(1);
  });

  it("asks for the passcode through nginx, sets a Secure cookie over HTTPS, and serves every file with it", async () => {
    const locked = await publishDelivery(t, staff, { photoNames: ["private.jpg"], side: 320 });
    expect(
      (await request(t.app).put(`/api/projects/${locked.id}/delivery`).set(staff.auth).send({ passcode: "letmein" }))
        .status,
    ).toBe(200);
    const urls = [`${locked.page}/p/1`, `${locked.page}/t/1`, `${locked.page}/all.zip`, locked.zipUrl];
    for (const url of urls) {
      const refused = await fetchVia(url);
      expect(refused.status, url).toBe(401);
      expect(refused.body.length, url).toBeLessThan(200);
    }
    const unlocked = await fetchVia(`/d/${locked.token}/unlock`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "passcode=letmein",
    });
    expect(unlocked.status).toBe(303);
    const set = unlocked.headers["set-cookie"] ?? [];
    expect(set.every((c) => /; Secure/.test(c))).toBe(true);
    const cookie = [...new Set(set.map((c) => c.split(";")[0]))].join("; ");
    for (const url of urls) expect((await fetchVia(url, { headers: { Cookie: cookie } })).status, url).toBe(200);
    const part = await fetchVia(`${locked.page}/p/1`, { headers: { Cookie: cookie, Range: "bytes=0-9" } });
    expect(part.status).toBe(206);
    expect(part.body.length).toBe(10);
    const zipPart = await fetchVia(`${locked.page}/all.zip`, { headers: { Cookie: cookie, Range: "bytes=0-9" } });
    expect(zipPart.status).toBe(206);
    expect(zipPart.body.subarray(0, 2).toString()).toBe("PK");
  });

  it("counts a ZIP download nginx sends once its bytes are handed over, whole or in ranges that cover it", async () => {
    const counted = await publishDelivery(t, staff, { photoNames: ["a.jpg", "b.jpg"], side: 320 });
    const downloads = () => downloadsOf(t, counted.id);
    const zipBytes = fs.readFileSync(counted.zipFile);
    const agent = { "User-Agent": "counting-test" };
    const whole = await fetchVia(`${counted.page}/all.zip`, { headers: agent });
    expect(whole.body.equals(zipBytes)).toBe(true);
    await until(downloads, (n) => n === 1);

    // Half, then the rest under the other link: one more download. A revalidation counts nothing.
    const half = Math.floor(zipBytes.length / 2);
    const first = await fetchVia(`${counted.page}/all.zip`, { headers: { ...agent, Range: `bytes=0-${half - 1}` } });
    expect(first.status).toBe(206);
    expect(await downloads()).toBe(1);
    const rest = await fetchVia(counted.zipUrl, { headers: { ...agent, Range: `bytes=${half}-` } });
    expect(Buffer.concat([first.body, rest.body]).equals(zipBytes)).toBe(true);
    await until(downloads, (n) => n === 2);
    const revalidated = await fetchVia(`${counted.page}/all.zip`, {
      headers: { ...agent, "If-None-Match": whole.headers.etag! },
    });
    expect(revalidated.status).toBe(304);
    const head = await fetchVia(`${counted.page}/all.zip`, { method: "HEAD", headers: agent });
    expect(head.status).toBe(200);
    // The hand-over counts while the app answers nginx: any count these made is written once recordings settle.
    await recordingsSettled(t.ctx);
    expect(await downloads()).toBe(2);
  });

  it("keeps the internal location out of reach from outside", async () => {
    const key = (await t.ctx.db("attachments").where({ project_id: d.id }).first("storage_key")).storage_key;
    const photo = await storedFile("storage_key", 1);
    const zip = path.basename(d.zipFile);
    for (const url of [
      `/_photodrop_files/uploads/${key}`,
      `/_photodrop_files/uploads/`,
      `/_photodrop_files/published/${zip}`,
      `/_photodrop_files/published/`,
    ]) {
      const res = await fetchVia(url);
      expect(res.status, url).toBe(404);
      expect(res.body.includes(photo.subarray(0, 64)), url).toBe(false);
    }
    // Beside the two folders or resolved into one (nginx resolves dot segments first): never a file.
    for (const url of [
      "/_photodrop_files/uploads",
      `/_photodrop_files/uploads/../uploads/${key}`,
      `/_photodrop_files/x/../uploads/${key}`,
    ]) {
      const res = await fetchVia(url);
      expect(res.headers["content-type"], url).not.toMatch(/image/);
      expect(res.body.includes(photo.subarray(0, 64)), url).toBe(false);
    }
  });

  it("redirects plain HTTP to HTTPS", async () => {
    const res = await new Promise<http.IncomingMessage>((resolve) => http.get(`${plainBase}${d.page}`, resolve));
    res.resume();
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe(`https://127.0.0.1${d.page}`);
  });

  it("takes a camera-sized upload and carries the /events WebSocket", async () => {
    const project = await request(t.app).post("/api/projects").set(staff.auth).send({ name: "Through nginx" });
    const photo = await makeNoisyJpeg(2400, 1800);
    expect(photo.length).toBeGreaterThan(2 * 1024 * 1024);
    const form = multipartFile("file", "big.jpg", "image/jpeg", photo);
    const uploaded = await new Promise<number>((resolve, reject) => {
      const req = https.request(
        `${base}/api/attachments/projects/${project.body.id}/upload`,
        {
          method: "POST",
          rejectUnauthorized: false,
          headers: { ...staff.auth, "Content-Type": form.contentType },
        },
        (res) => (res.resume(), resolve(res.statusCode!)),
      );
      req.on("error", reject);
      req.end(form.body);
    });
    expect(uploaded).toBe(201);

    const socket = await TestSocket.open(`${base.replace("https", "wss")}/events`, { rejectUnauthorized: false });
    try {
      socket.send("subscribe-to-resources", { resources: ["projects"], token: staff.token });
      expect(await socket.next()).toMatchObject({ event: "subscribed" });
    } finally {
      socket.close();
    }
    expect(nginx.errors()).not.toMatch(/\[(error|crit|alert|emerg)\]/);
  });
});
