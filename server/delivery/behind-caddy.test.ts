import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import request from "supertest";
import { multipartFile } from "../test/binary-body";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeNoisyJpeg } from "../attachments/test-fixtures";
import { TestSocket } from "../events/test-socket";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { httpsAnswer, listenUpstream, selfSignedCertificate } from "../test/behind-proxy";
import { caddySite, CADDY, CADDYFILE, noCaddyHere, startCaddy, type RunningCaddy } from "../test/caddy";
import { publishDelivery, type PublishedDelivery } from "./test-fixtures";

/**
 * deploy/Caddyfile, as written, in front of a Photodrop started with TRUST_PROXY=1 (as
 * docs/caddy.md says): a real Caddy (Debian's package) over HTTPS. Only its upstream's port is
 * replaced, and the certificate it would get from Let's Encrypt is the test's own (a `tls` line);
 * its ports and storage are the test's (startCaddy's global options).
 */

const NAME = "photos.example.com";
const RATE_LIMIT_PER_IP = 3;

let t: TestApp;
let staff: TestUser;
let upstream: Awaited<ReturnType<typeof listenUpstream>>;
let caddy: RunningCaddy;
let ports: { http: number; https: number };
let d: PublishedDelivery;

/** A request to Caddy over HTTPS for the site's name, from `from` (a loopback address: the client's). */
function fetchVia(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Buffer; from?: string } = {},
) {
  return httpsAnswer(
    `https://127.0.0.1:${ports.https}${url}`,
    {
      method: init.method ?? "GET",
      servername: NAME,
      localAddress: init.from ?? "127.0.0.1",
      headers: { Host: NAME, ...init.headers },
    },
    init.body,
  );
}

beforeAll(async () => {
  if (!fs.existsSync(CADDY)) return;
  t = await createTestApp({ TRUST_PROXY: "1", RATE_LIMIT_PER_IP: String(RATE_LIMIT_PER_IP) });
  staff = await createUser(t.ctx);
  upstream = await listenUpstream(t);
  const dir = path.join(t.dir, "caddy");
  fs.mkdirSync(dir);
  const tls = selfSignedCertificate(dir, NAME);
  const site = caddySite([
    ["reverse_proxy 127.0.0.1:3000", `reverse_proxy 127.0.0.1:${upstream.port}`],
    [`${NAME} {\n`, `${NAME} {\n\ttls ${tls.cert} ${tls.key}\n`],
  ]);
  caddy = await startCaddy(dir, site);
  ports = caddy.ports;
  d = await publishDelivery(t, staff, { photoNames: ["one.jpg", "two.jpg"], side: 640 });
}, 60_000);

afterAll(async () => {
  await caddy?.stop();
  await upstream?.close();
  await t?.close();
});

describe.skipIf(noCaddyHere)("behind deploy/Caddyfile (Caddy 2.6, automatic HTTPS)", () => {
  it("is found: Debian's caddy is installed (apt-get install caddy) and the site is as `caddy fmt` writes it", () => {
    expect(fs.existsSync(CADDY), `${CADDY} is missing: apt-get install caddy`).toBe(true);
    expect(execFileSync(CADDY, ["fmt", CADDYFILE], { encoding: "utf8" })).toBe(fs.readFileSync(CADDYFILE, "utf8"));
  });

  it("is shown in docs/caddy.md as it is in deploy/Caddyfile, comments aside", () => {
    const page = fs.readFileSync(new URL("../../docs/caddy.md", import.meta.url), "utf8");
    const shown = /```caddyfile\n([\s\S]*?)\n *```/.exec(page)?.[1];
    const lines = (text: string) => text.split("\n").map((line) => line.replace(/^ {3}/, ""));
    const site = fs
      .readFileSync(CADDYFILE, "utf8")
      .split("\n")
      .filter((line) => line && !line.startsWith("#"));
    expect(lines(shown ?? "")).toEqual(site);
  });

  it("answers the web app's pages and the client's gallery as Photodrop does", async () => {
    for (const url of ["/", "/projects"]) {
      const direct = await request(t.app).get(url);
      const proxied = await fetchVia(url);
      expect(proxied.status, url).toBe(direct.status);
      expect(proxied.headers["content-type"], url).toBe(direct.headers["content-type"]);
      expect(proxied.body.toString(), url).toBe(direct.text);
    }
    const gallery = await fetchVia(d.page);
    expect(gallery.status).toBe(200);
    expect(gallery.headers["content-type"]).toMatch(/^text\/html/);
    expect(gallery.body.toString()).toContain("<title>Wedding · Photodrop</title>");
    expect(gallery.body.toString()).toContain('<img src="t/2"');
  });

  it("carries the API, and Photodrop sees the request came over HTTPS", async () => {
    const direct = await request(t.app).get("/healthz");
    expect(direct.headers["strict-transport-security"]).toBeUndefined();
    const health = await fetchVia("/healthz");
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body.toString())).toEqual(direct.body);
    // Sent only on a request Photodrop judges secure: X-Forwarded-Proto from a proxy it trusts.
    expect(health.headers["strict-transport-security"]).toMatch(/max-age=\d+/);
    const projects = await fetchVia("/api/projects", { headers: staff.auth });
    expect(projects.status).toBe(200);
    const own = await request(t.app).get("/api/projects").set(staff.auth);
    expect(own.body).toEqual(expect.arrayContaining([expect.objectContaining({ name: "Wedding" })]));
    expect(JSON.parse(projects.body.toString())).toEqual(own.body);
  });

  it("hands Photodrop each client's own address, not Caddy's nor one the client made up", async () => {
    const signIn = (from: string) =>
      fetchVia("/api/auth/login", {
        method: "POST",
        from,
        headers: { "Content-Type": "application/json", "X-Forwarded-For": "203.0.113.7" },
        body: JSON.stringify({ email: staff.email, password: "not-the-password" }),
      });
    const statuses = [];
    for (let i = 0; i <= RATE_LIMIT_PER_IP; i++) statuses.push((await signIn("127.0.0.2")).status);
    expect(statuses).toEqual([...Array(RATE_LIMIT_PER_IP).fill(401), 429]);
    // Another client behind the same Caddy has its own budget: Photodrop told them apart.
    expect((await signIn("127.0.0.3")).status).toBe(401);
  });

  it("takes a camera-sized upload and carries the /events WebSocket", async () => {
    const project = await request(t.app).post("/api/projects").set(staff.auth).send({ name: "Through Caddy" });
    const photo = await makeNoisyJpeg(2400, 1800);
    expect(photo.length).toBeGreaterThan(2 * 1024 * 1024);
    const form = multipartFile("file", "big.jpg", "image/jpeg", photo);
    const uploaded = await fetchVia(`/api/attachments/projects/${project.body.id}/upload`, {
      method: "POST",
      headers: { ...staff.auth, "Content-Type": form.contentType },
      body: form.body,
    });
    expect(uploaded.status, uploaded.body.toString()).toBe(201);

    // ws hands servername on to tls.connect, though its types leave it out: the certificate is the site name's.
    const tls = { servername: NAME, headers: { Host: NAME }, rejectUnauthorized: false };
    const socket = await TestSocket.open(`wss://127.0.0.1:${ports.https}/events`, tls);
    try {
      socket.send("subscribe-to-resources", { resources: ["projects"], token: staff.token });
      expect(await socket.next()).toMatchObject({ event: "subscribed" });
    } finally {
      socket.close();
    }
  });

  it("sends the client's photos and ZIP, whole and in ranges", async () => {
    const zipBytes = fs.readFileSync(d.zipFile);
    const zip = await fetchVia(`${d.page}/all.zip`);
    expect(zip.status).toBe(200);
    expect(zip.headers["content-type"]).toBe("application/zip");
    expect(zip.body.equals(zipBytes)).toBe(true);
    const tail = await fetchVia(d.zipUrl, { headers: { Range: "bytes=-22" } });
    expect(tail.status).toBe(206);
    expect(tail.body.equals(zipBytes.subarray(zipBytes.length - 22))).toBe(true);

    const direct = await request(t.app)
      .get(`${d.page}/p/2`)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => done(null, Buffer.concat(chunks)));
      });
    const photo = await fetchVia(`${d.page}/p/2`);
    expect(photo.status).toBe(200);
    expect(photo.headers["content-type"]).toBe("image/jpeg");
    expect(photo.body.equals(direct.body as Buffer)).toBe(true);
  });

  it("redirects plain HTTP to HTTPS, and logged no error", async () => {
    const res = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http
        .get({ host: "127.0.0.1", port: ports.http, path: `${d.page}?x=1`, headers: { Host: NAME } }, resolve)
        .on("error", reject),
    );
    res.resume();
    expect(res.statusCode).toBe(308);
    expect(res.headers.location).toBe(`https://${NAME}${d.page}?x=1`);
    expect(caddy.errors()).toEqual([]);
  });
});
