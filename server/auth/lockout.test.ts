import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/harness";
import { startSmtpInbox, type SmtpInbox } from "../test/smtp-inbox";
import { eventually } from "../test/wait";
import { signUp } from "./auth-test-helpers";
import { listen, post as postFrom, type Listening } from "./burst-test-helpers";
import { DEVICE_COOKIE } from "./device-cookie";
import { SESSION_HEADER } from "./session-cookie";

/**
 * Short windows for the test: 3 attempts per account and address pair a second, 12 an hour per
 * pair, and an account-wide hourly ceiling of 12 to which each address adds at most 3.
 */
const LIMITS = {
  RATE_LIMIT_PER_ACCOUNT: "3",
  RATE_LIMIT_PER_IP: "1000",
  RATE_LIMIT_WINDOW: "1",
  RATE_LIMIT_PER_ACCOUNT_HOURLY: "12",
};
const OWNER = "owner@studio.test";

let t: TestApp;
let smtp: SmtpInbox;
let server: Listening;

beforeAll(async () => {
  smtp = await startSmtpInbox();
  t = await createTestApp({ ...LIMITS, SMTP_URL: smtp.url, PUBLIC_URL: "https://photos.example.test/" });
  await signUp(t.app, OWNER, "rightpass");
  await signUp(t.app, "other@studio.test", "otherpass");
  server = await listen(t.app);
});
afterAll(async () => {
  await server.close();
  await t.close();
  await smtp.close();
});

interface Answer {
  status: number;
  /** The device cookie the answer set, as `name=value`. */
  device?: string;
}

/** A POST sent from a chosen loopback address, as a browser if `cookie` is given. */
async function post(from: string, path: string, body: Record<string, string>, cookie?: string): Promise<Answer> {
  const browser = cookie === undefined ? {} : { [SESSION_HEADER]: "cookie", ...(cookie ? { Cookie: cookie } : {}) };
  const { status, headers } = await postFrom({ port: server.port, path, body, from, headers: browser });
  const device = (headers["set-cookie"] ?? []).find((c) => c.startsWith(`${DEVICE_COOKIE}=`))?.split(";")[0];
  return { status, device };
}

const login = async (from: string, password: string, cookie?: string, email = OWNER) =>
  (await post(from, "/api/auth/login", { email, password }, cookie)).status;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Wrong passwords from one address, waiting out its short windows, until `judged` of them were answered 401. */
async function failFrom(from: string, judged: number): Promise<void> {
  for (let failed = 0; failed < judged;) {
    const status = await login(from, "wrongpass");
    if (status === 401) failed++;
    else {
      expect(status).toBe(429);
      await sleep(250);
    }
  }
}

let browserDevice: string | undefined;

describe("one address against an account", () => {
  it("locks only itself out, even after an hour's worth of its attempts: the owner signs in from another address", async () => {
    // The pair's hour (12 judged failures) is spent, with many more refused by its short window on the way.
    await failFrom("127.0.0.1", 12);
    // The pair's 1 s window is waited out (no clock to drive: the limits read the time themselves), so
    // the refusal below is the hour's: it says so in Retry-After, where the short window's would say 1 s.
    await sleep(1100);
    const refused = await postFrom({
      port: server.port,
      path: "/api/auth/login",
      body: { email: OWNER, password: "rightpass" },
      from: "127.0.0.1",
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(60);
    expect(await login("127.0.0.1", "wrongpass")).toBe(429);
    expect(await login("127.0.0.2", "rightpass")).toBe(200);

    // A browser signs in from another address and keeps its device cookie.
    const signedIn = await post("127.0.0.2", "/api/auth/login", { email: OWNER, password: "rightpass" }, "");
    expect(signedIn.status).toBe(200);
    expect(signedIn.device).toMatch(new RegExp(`^${DEVICE_COOKIE}=`));
    browserDevice = signedIn.device;
  }, 60_000);

  it("counts only judged failures toward the account's ceiling: the owner gets in until many addresses have spent it", async () => {
    // 127.0.0.1 added its 3; two more addresses add 6; the owner's sign-ins added nothing.
    await failFrom("127.0.0.3", 3);
    await failFrom("127.0.0.4", 3);
    expect(await login("127.0.0.6", "rightpass")).toBe(200);
    expect(await login("127.0.0.6", "rightpass")).toBe(200);
    await failFrom("127.0.0.5", 3);
    // Twelve failures from four addresses: the ceiling is spent for every browser without a device cookie.
    expect(await login("127.0.0.6", "rightpass")).toBe(429);
    expect(await login("127.0.0.7", "rightpass")).toBe(429);
    expect(await login("127.0.0.7", "rightpass", "")).toBe(429);
  }, 60_000);

  it("lets the owner's browser that signed in before through the spent ceiling, not a forged or another account's cookie", async () => {
    expect(browserDevice).toBeDefined();
    const cookie = browserDevice!;
    expect(await login("127.0.0.8", "rightpass", cookie)).toBe(200);
    // Still held to its own pair budget: a wrong password is judged, and answered 401.
    expect(await login("127.0.0.8", "wrongpass", cookie)).toBe(401);

    const forged = cookie.replace(/\.(\d+)\./, (_m, exp: string) => `.${Number(exp) + 1}.`);
    expect(await login("127.0.0.9", "rightpass", forged)).toBe(429);
    const other = await post("127.0.0.9", "/api/auth/login", { email: "other@studio.test", password: "otherpass" }, "");
    expect(other.status).toBe(200);
    expect(await login("127.0.0.9", "rightpass", other.device)).toBe(429);
    // An API client (no browser header) gets no device cookie.
    expect(
      (await post("127.0.0.9", "/api/auth/login", { email: "other@studio.test", password: "otherpass" })).device,
    ).toBeUndefined();
  }, 60_000);

  it("takes reset requests on their own budget while sign-in's is spent, and a reset clears the account's sign-in budgets", async () => {
    expect((await post("127.0.0.10", "/api/auth/password-reset", { email: OWNER })).status).toBe(202);
    const mail = await eventually(() => smtp.mails.find((m) => m.to.includes(OWNER) && m.body.includes("mode=reset")));
    const token = /mode=reset&token=([\w-]+)/.exec(mail.body)?.[1];
    expect(token).toBeDefined();
    expect(
      (await post("127.0.0.10", "/api/auth/password-reset/confirm", { token: token!, password: "newpass1" })).status,
    ).toBe(204);
    // The ceiling and every pair of the account start afresh: the spent address too.
    expect(await login("127.0.0.7", "newpass1")).toBe(200);
    expect(await login("127.0.0.1", "newpass1")).toBe(200);
  }, 60_000);

  it("never lets spent reset requests block signing in", async () => {
    const asked = await Promise.all(
      Array.from({ length: 10 }, () => post("127.0.0.11", "/api/auth/password-reset", { email: OWNER })),
    );
    // 3 a second from one address: even if the window turned during the burst, most were refused.
    expect(asked.filter((a) => a.status === 429).length).toBeGreaterThanOrEqual(4);
    expect(await login("127.0.0.11", "newpass1")).toBe(200);
  }, 60_000);
});
