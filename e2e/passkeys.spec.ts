import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, CDPSession, Page } from "playwright-core";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, type SessionBody } from "../server/auth/auth-test-helpers";
import { expectMatchesContract } from "../server/openapi/contract";
import { createTestApp, type TestApp } from "../server/test/harness";
import { approvedAccount } from "../server/two-factor/two-factor-test-helpers";
import { launchBrowser } from "./browser";
import { addVirtualAuthenticator } from "./fixtures/virtual-authenticator";
import { LAN_NAME, MAP_LAN_NAME } from "./lan-journey";

/**
 * Passkeys with a real authenticator: Chromium's virtual one (DevTools protocol), driven through
 * @simplewebauthn/browser in a page on the test server's http://localhost origin, a secure context.
 * The test posts what the browser made to the API itself, so it can also replay and alter it.
 */

const BROWSER_BUNDLE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../node_modules/@simplewebauthn/browser/dist/bundle/index.umd.min.js",
);

let t: TestApp;
let server: http.Server;
let port: number;
let browser: Browser;
let admin: SessionBody;
let n = 0;

/** Every call names the server as the page does: http://localhost:<port>. */
const api = (method: "get" | "post" | "patch" | "delete", route: string) =>
  request(`http://127.0.0.1:${port}`)[method](route).set("Host", `localhost:${port}`);

beforeAll(async () => {
  // Three judged failures per account: the budget case spends them; every other case uses its own account.
  t = await createTestApp({ RATE_LIMIT_PER_ACCOUNT: "3", RATE_LIMIT_PER_IP: "1000" }, { captureLog: true });
  server = http.createServer(t.app.serverOptions, t.app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  admin = await approvedAccount(t.app, "admin@studio.test", "adminpass1");
  browser = await launchBrowser([MAP_LAN_NAME]);
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  await t?.close();
});

interface Authenticator {
  page: Page;
  cdp: CDPSession;
  id: string;
}

/** A page at http://localhost:<port> with its own virtual platform authenticator (user verification on). */
async function authenticatorPage(): Promise<Authenticator> {
  // The bundle goes in as an inline script, which the app's CSP would refuse.
  const context = await browser.newContext({ bypassCSP: true });
  const page = await context.newPage();
  await page.goto(`http://localhost:${port}/api/auth/config`);
  await page.addScriptTag({ path: BROWSER_BUNDLE });
  return { page, ...(await addVirtualAuthenticator(page)) };
}

declare const SimpleWebAuthnBrowser: {
  startRegistration(o: { optionsJSON: unknown }): Promise<unknown>;
  startAuthentication(o: { optionsJSON: unknown }): Promise<unknown>;
};

const create = (page: Page, optionsJSON: unknown) =>
  page.evaluate((o) => SimpleWebAuthnBrowser.startRegistration({ optionsJSON: o }), optionsJSON);
const get = (page: Page, optionsJSON: unknown) =>
  page.evaluate((o) => SimpleWebAuthnBrowser.startAuthentication({ optionsJSON: o }), optionsJSON) as Promise<{
    response: { userHandle?: string };
  }>;

/** An approved staff account, and a passkey made for it on its own authenticator. */
async function staffWithPasskey(name = "Laptop") {
  const email = `staff${++n}@studio.test`;
  const session = await approvedAccount(t.app, email, "staffpass1", admin);
  const device = await authenticatorPage();
  // Adding a passkey asks again who is there (the password here; a two-factor code also does).
  const options = await api("post", "/api/users/me/passkeys/registration-options")
    .set(bearer(session.accessToken))
    .send({ password: "staffpass1" });
  expect(options.status, JSON.stringify(options.body)).toBe(200);
  const response = await create(device.page, options.body);
  const added = await api("post", "/api/users/me/passkeys").set(bearer(session.accessToken)).send({ name, response });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  expectMatchesContract(added, "post", "/api/users/me/passkeys");
  return { email, session, device, passkey: added.body as { id: number; name: string } };
}

/** Fresh sign-in options, and what the page's authenticator answered to them. */
async function assertion(page: Page) {
  const options = await api("post", "/api/auth/passkey/options");
  expect(options.status, JSON.stringify(options.body)).toBe(200);
  return { challengeId: options.body.challengeId as string, response: await get(page, options.body.options) };
}

const signInWith = (body: object) => api("post", "/api/auth/passkey").send(body);

/** Why the server refused the latest passkey sign-in, as its log says: each case must fail for its own reason. */
function lastRefusal(): string | undefined {
  const lines = t.logLines.map((line) => JSON.parse(line) as { msg?: string; reason?: string });
  return lines.filter((line) => line.msg?.startsWith("passkey sign-in refused")).at(-1)?.reason;
}

describe("passkeys with Chromium's virtual authenticator", () => {
  it("adds, lists and renames a passkey, then signs in with it alone into a working session", async () => {
    const { session, device, passkey } = await staffWithPasskey("Laptop");
    expect(passkey).toEqual({
      id: expect.any(Number),
      name: "Laptop",
      createdAt: expect.any(String),
      lastUsedAt: null,
    });
    const renamed = await api("patch", `/api/users/me/passkeys/${passkey.id}`)
      .set(bearer(session.accessToken))
      .send({ name: "Work laptop" });
    expect(renamed.body).toMatchObject({ id: passkey.id, name: "Work laptop" });
    expectMatchesContract(renamed, "patch", "/api/users/me/passkeys/:id");

    const signedIn = await signInWith(await assertion(device.page));
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect(signedIn.body.user.uid).toBe(session.user.uid);
    const me = await api("get", "/api/users/me").set(bearer(signedIn.body.accessToken));
    expect([me.status, me.body.email]).toEqual([200, session.user.email]);
    const sessions = await api("get", "/api/users/me/sessions").set(bearer(signedIn.body.accessToken));
    expect(sessions.body.filter((s: { current: boolean }) => s.current)).toHaveLength(1);

    const list = await api("get", "/api/users/me/passkeys").set(bearer(session.accessToken));
    expect(list.body).toEqual([{ ...renamed.body, lastUsedAt: expect.any(String) }]);
    expectMatchesContract(list, "get", "/api/users/me/passkeys");
    const row = await t.ctx.db("passkeys").where({ id: passkey.id }).first();
    expect(Number(row.counter)).toBeGreaterThan(0);
  });

  it("refuses an answer replayed, and one made for another challenge", async () => {
    const { device } = await staffWithPasskey();
    const first = await assertion(device.page);
    expect((await signInWith(first)).status).toBe(200);
    expect((await signInWith(first)).status).toBe(401);
    expect(lastRefusal()).toBe("challenge unknown, used or run out");
    const made = await assertion(device.page);
    const other = (await api("post", "/api/auth/passkey/options")).body;
    expect((await signInWith({ challengeId: other.challengeId, response: made.response })).status).toBe(401);
    expect(lastRefusal()).toMatch(/Unexpected authentication response challenge/);
    const log = t.logLines.join("");
    for (const secret of [other.challengeId, other.options.challenge, made.challengeId])
      expect(log).not.toContain(secret);
  });

  it("refuses another user's passkey: its answer under another account's handle, and renaming or removing it", async () => {
    const bob = await staffWithPasskey("Bob's phone");
    const carol = await staffWithPasskey("Carol's laptop");
    const made = await assertion(carol.device.page);
    const bobsHandle = Buffer.from(bob.session.user.uid).toString("base64url");
    const swapped = {
      ...made,
      response: { ...made.response, response: { ...made.response.response, userHandle: bobsHandle } },
    };
    expect((await signInWith(swapped)).status).toBe(401);
    expect(lastRefusal()).toBe("user handle of another account");
    const path = `/api/users/me/passkeys/${carol.passkey.id}`;
    expect((await api("patch", path).set(bearer(bob.session.accessToken)).send({ name: "Mine" })).status).toBe(404);
    expect((await api("delete", path).set(bearer(bob.session.accessToken))).status).toBe(404);
    const carols = await api("get", "/api/users/me/passkeys").set(bearer(carol.session.accessToken));
    expect(carols.body.map((p: { name: string }) => p.name)).toEqual(["Carol's laptop"]);
  });

  it("refuses a cloned authenticator whose counter went back", async () => {
    const { device } = await staffWithPasskey();
    expect((await signInWith(await assertion(device.page))).status).toBe(200);
    expect((await signInWith(await assertion(device.page))).status).toBe(200);
    const { credentials } = await device.cdp.send("WebAuthn.getCredentials", { authenticatorId: device.id });
    expect(credentials).toHaveLength(1);
    const clone = await authenticatorPage();
    await clone.cdp.send("WebAuthn.addCredential", {
      authenticatorId: clone.id,
      credential: { ...credentials[0], signCount: 0 },
    });
    expect((await signInWith(await assertion(clone.page))).status).toBe(401);
    expect(lastRefusal()).toMatch(/counter value 1 was lower than expected [2-9]/);
    // The original, whose counter goes on rising, still signs in.
    expect((await signInWith(await assertion(device.page))).status).toBe(200);
  });

  it("stops signing in with a passkey once it is removed", async () => {
    const { session, device, passkey } = await staffWithPasskey();
    const removed = await api("delete", `/api/users/me/passkeys/${passkey.id}`).set(bearer(session.accessToken));
    expect(removed.status).toBe(204);
    expect((await signInWith(await assertion(device.page))).status).toBe(401);
    expect(lastRefusal()).toBe("unknown passkey");
  });

  it("counts refused answers on the account's sign-in budgets, like wrong passwords", async () => {
    const { email, device } = await staffWithPasskey();
    const used = await assertion(device.page);
    expect((await signInWith(used)).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await signInWith(used)).status).toBe(401);
    const right = await signInWith(await assertion(device.page));
    expect(right.status).toBe(429);
    const password = await api("post", "/api/auth/login").send({ email, password: "staffpass1" });
    expect(password.status).toBe(429);
  });

  it("offers no passkeys to a page over plain HTTP at a LAN name, and says why", async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`http://${LAN_NAME}:${port}/api/auth/config`);
      const seen = await page.evaluate(async () => ({
        secure: window.isSecureContext,
        webAuthn: typeof window.PublicKeyCredential,
        config: await (await fetch("/api/auth/config")).json(),
        options: await (await fetch("/api/auth/passkey/options", { method: "POST" })).json(),
      }));
      expect(seen.secure).toBe(false);
      expect(seen.webAuthn).toBe("undefined");
      expect(seen.config.passkeys).toEqual({ offered: false, reason: expect.stringMatching(/secure connection/) });
      expect(seen.options).toEqual({ statusCode: 400, message: seen.config.passkeys.reason });
    } finally {
      await context.close();
    }
  });
});
