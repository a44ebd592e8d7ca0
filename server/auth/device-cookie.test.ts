import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../test/harness";
import { appWithOwner, cookieSet, OWNER as owner } from "./cookie-test-helpers";
import { DEVICE_COOKIE } from "./device-cookie";
import { SESSION_HEADER } from "./session-cookie";

let t: TestApp;

beforeAll(async () => {
  t = await appWithOwner();
});
afterAll(() => t.close());

/** The device cookie an answer sets: its `name=value`, its attributes and the device id. */
function deviceCookie(res: request.Response) {
  const { pair, attributes } = cookieSet(res, DEVICE_COOKIE);
  return { pair, attributes, device: pair.split(".")[1] };
}

const signIn = () => request(t.app).post("/api/auth/login").set(SESSION_HEADER, "cookie").send(owner);

describe("the device cookie of a browser that signed in", () => {
  it("is HttpOnly, SameSite=Lax, for /api/auth only, lives a year, and is bound to the account", async () => {
    const res = await signIn();
    expect(res.status).toBe(200);
    const { pair, attributes } = deviceCookie(res);
    expect(pair.startsWith(`${DEVICE_COOKIE}=${res.body.user.uid}.`)).toBe(true);
    expect(attributes).toContain("HttpOnly");
    expect(attributes).toContain("SameSite=Lax");
    expect(attributes).toContain("Path=/api/auth");
    expect(attributes).not.toContain("Secure");
    const expires = new Date(/Expires=([^;]+)/.exec(attributes)![1]).getTime();
    expect(expires - Date.now()).toBeGreaterThan(364 * 24 * 3600 * 1000);
  });

  it("is Secure when the request came over HTTPS", async () => {
    expect(deviceCookie(await signIn().set("X-Forwarded-Proto", "https")).attributes).toContain("Secure");
  });

  it("keeps the browser's device id when it signs in again, and gives another browser its own", async () => {
    const first = deviceCookie(await signIn());
    const again = deviceCookie(await signIn().set("Cookie", first.pair));
    expect(again.device).toBe(first.device);
    expect(deviceCookie(await signIn()).device).not.toBe(first.device);
  });

  it("is given to a browser on sign-up too, and never to an API client", async () => {
    const res = await request(t.app)
      .post("/api/auth/signup")
      .set(SESSION_HEADER, "cookie")
      .send({ email: "new@studio.test", password: "secret123" });
    expect(res.status).toBe(201);
    deviceCookie(res);
    const api = await request(t.app).post("/api/auth/login").send(owner);
    expect(api.status).toBe(200);
    expect(api.headers["set-cookie"]).toBeUndefined();
  });
});
