import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestApp } from "../test/harness";
import { publishDelivery } from "../delivery/test-fixtures";

/** The headers of one public call, as a browser that reached the server by `host` would get them. */
async function headersAt(t: TestApp, host: string, extra: Record<string, string> = {}) {
  const res = await request(t.app).get("/api/auth/config").set("Host", host).set(extra);
  expect(res.status).toBe(200);
  return res.headers;
}

/** The refresh cookie's attributes on a browser's sign-up. */
async function sessionCookie(t: TestApp, host: string, extra: Record<string, string> = {}) {
  const res = await request(t.app)
    .post("/api/auth/signup")
    .set("Host", host)
    .set("X-Photodrop-Session", "cookie")
    .set(extra)
    .send({ email: `${Math.random().toString(36).slice(2)}@studio.test`, password: "secret123" });
  expect(res.status).toBe(201);
  return (res.headers["set-cookie"] as unknown as string[]).join("\n");
}

const RELAXED = { RATE_LIMIT_PER_IP: "1000" };

const SECURITY_HEADERS = [
  "content-security-policy",
  "strict-transport-security",
  "cross-origin-opener-policy",
  "origin-agent-cluster",
];

/** A delivery file's answer (given before Express) carries what Express's answers carry for the same arrival. */
async function expectDeliveryFilesAlike(t: TestApp, host: string, extra: Record<string, string> = {}) {
  const api = await headersAt(t, host, extra);
  const file = await request(t.app).get("/d/AAAAAAAAAAAAAAAAAAAAAAAA/t/1").set("Host", host).set(extra);
  expect(file.status).toBe(404);
  for (const name of SECURITY_HEADERS) expect(file.headers[name], `${name} at ${host}`).toBe(api[name]);
}

/** A published delivery's first photo, answered before Express: the headers it came with. */
async function deliveredPhotoHeaders(t: TestApp, host: string, extra: Record<string, string> = {}) {
  const d = await publishDelivery(t, await createUser(t.ctx), { photoNames: ["a.jpg"] });
  const res = await request(t.app).get(`/d/${d.token}/p/1`).set("Host", host).set(extra);
  expect(res.status).toBe(200);
  expect(res.headers["content-type"]).toBe("image/jpeg");
  return res.headers;
}

/** Whether the headers tell the browser it came over HTTPS (to remember it, and to upgrade what it loads). */
const toldHttps = (headers: Record<string, string>) => ({
  hsts: headers["strict-transport-security"] !== undefined,
  upgrade: /upgrade-insecure-requests/.test(headers["content-security-policy"] ?? ""),
});

describe("security headers over plain HTTP at a LAN name", () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp(RELAXED)));
  afterAll(() => t.close());

  it("never tells the browser to upgrade to an HTTPS nobody serves, nor to remember HTTPS", async () => {
    for (const host of ["studio.lan:3000", "192.168.1.20:3000", "nas.local"]) {
      const headers = await headersAt(t, host);
      expect(headers["content-security-policy"]).toContain("default-src 'self'");
      expect(headers["content-security-policy"]).not.toContain("upgrade-insecure-requests");
      expect(headers["strict-transport-security"]).toBeUndefined();
      // Ignored outside a secure context, where the browser logs an error or warning for them on every page.
      expect(headers["cross-origin-opener-policy"]).toBeUndefined();
      expect(headers["origin-agent-cluster"]).toBeUndefined();
      expect(headers["cross-origin-resource-policy"]).toBe("same-origin");
      expect(headers["x-content-type-options"]).toBe("nosniff");
    }
  });

  it("keeps the opener policy and origin-keyed clusters on loopback names, which browsers treat as secure", async () => {
    for (const host of ["127.0.0.1:3000", "localhost:3000", "[::1]:3000"]) {
      const headers = await headersAt(t, host);
      expect(headers["cross-origin-opener-policy"]).toBe("same-origin");
      expect(headers["origin-agent-cluster"]).toBe("?1");
      expect(headers["strict-transport-security"]).toBeUndefined();
      expect(headers["content-security-policy"]).not.toContain("upgrade-insecure-requests");
    }
  });

  it("gives the delivery files the same headers as every other answer", async () => {
    for (const host of ["studio.lan:3000", "127.0.0.1:3000"]) await expectDeliveryFilesAlike(t, host);
  });

  it("sets cookies without Secure, which a plain-HTTP page could not keep", async () => {
    expect(await sessionCookie(t, "studio.lan:3000")).not.toMatch(/Secure/);
  });

  it("does not believe X-Forwarded-Proto without TRUST_PROXY", async () => {
    const headers = await headersAt(t, "studio.lan", { "X-Forwarded-Proto": "https" });
    expect(headers["strict-transport-security"]).toBeUndefined();
    expect(await sessionCookie(t, "studio.lan", { "X-Forwarded-Proto": "https" })).not.toMatch(/Secure/);
  });

  it("does not believe X-Forwarded-Proto without TRUST_PROXY on the delivery files either (answered before Express)", async () => {
    const headers = await deliveredPhotoHeaders(t, "studio.lan:3000", { "X-Forwarded-Proto": "https" });
    expect(toldHttps(headers)).toEqual({ hsts: false, upgrade: false });
    expect(headers["cross-origin-opener-policy"]).toBeUndefined();
  });
});

describe("security headers behind a TLS proxy (TRUST_PROXY)", () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp({ ...RELAXED, TRUST_PROXY: "1" })));
  afterAll(() => t.close());

  it("upgrades, sends HSTS for a year without includeSubDomains, and marks cookies Secure on an HTTPS request", async () => {
    const https = { "X-Forwarded-Proto": "https" };
    const headers = await headersAt(t, "photos.studio.example", https);
    expect(headers["content-security-policy"]).toMatch(/(^|;)upgrade-insecure-requests(;|$)/);
    expect(headers["strict-transport-security"]).toBe("max-age=31536000");
    expect(headers["cross-origin-opener-policy"]).toBe("same-origin");
    expect(headers["origin-agent-cluster"]).toBe("?1");
    expect(await sessionCookie(t, "photos.studio.example", https)).toMatch(/; Secure/);
  });

  it("gives the delivery files the same headers by the forwarded scheme", async () => {
    await expectDeliveryFilesAlike(t, "photos.studio.example", { "X-Forwarded-Proto": "https" });
    await expectDeliveryFilesAlike(t, "studio.lan:3000", { "X-Forwarded-Proto": "http" });
  });

  it("believes the trusted proxy's X-Forwarded-Proto on the delivery files (answered before Express)", async () => {
    const https = await deliveredPhotoHeaders(t, "photos.studio.example", { "X-Forwarded-Proto": "https" });
    expect(toldHttps(https)).toEqual({ hsts: true, upgrade: true });
    const http = await deliveredPhotoHeaders(t, "photos.studio.example", { "X-Forwarded-Proto": "http" });
    expect(toldHttps(http)).toEqual({ hsts: false, upgrade: false });
  });

  it("answers the same process's plain-HTTP requests as plain HTTP", async () => {
    const headers = await headersAt(t, "studio.lan:3000", { "X-Forwarded-Proto": "http" });
    expect(headers["content-security-policy"]).not.toContain("upgrade-insecure-requests");
    expect(headers["strict-transport-security"]).toBeUndefined();
  });
});

describe("security headers with an https PUBLIC_URL", () => {
  let t: TestApp;
  beforeAll(
    async () =>
      (t = await createTestApp({
        ...RELAXED,
        PUBLIC_URL: "https://photos.studio.example",
        HSTS_INCLUDE_SUBDOMAINS: "1",
      })),
  );
  afterAll(() => t.close());

  it("treats a request for that name as HTTPS even when the proxy's hop is not trusted", async () => {
    const headers = await headersAt(t, "photos.studio.example");
    expect(headers["content-security-policy"]).toContain("upgrade-insecure-requests");
    expect(headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
    expect(await sessionCookie(t, "photos.studio.example")).toMatch(/; Secure/);
  });

  it("gives the delivery files HSTS at that name and none at the LAN address", async () => {
    await expectDeliveryFilesAlike(t, "photos.studio.example");
    await expectDeliveryFilesAlike(t, "192.168.1.20:3000");
  });

  it("does not believe an untrusted hop's X-Forwarded-Host naming that name on the delivery files", async () => {
    const forged = { "X-Forwarded-Host": "photos.studio.example" };
    expect(toldHttps(await deliveredPhotoHeaders(t, "192.168.1.20:3000", forged))).toEqual({
      hsts: false,
      upgrade: false,
    });
    expect(toldHttps(await deliveredPhotoHeaders(t, "photos.studio.example"))).toEqual({ hsts: true, upgrade: true });
  });

  it("still serves the office's plain-HTTP LAN address as plain HTTP", async () => {
    const headers = await headersAt(t, "192.168.1.20:3000");
    expect(headers["content-security-policy"]).not.toContain("upgrade-insecure-requests");
    expect(headers["strict-transport-security"]).toBeUndefined();
    expect(await sessionCookie(t, "192.168.1.20:3000")).not.toMatch(/Secure/);
  });
});
