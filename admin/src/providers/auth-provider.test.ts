// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest";
import { browseTo, webAppServerPerFile } from "../test/web-app-server";
import { authProvider } from "./auth-provider";
import { freshAccessToken } from "./http";

const server = webAppServerPerFile();

afterEach(() => {
  vi.useRealTimers();
});

const expiryOf = (token: string) => (JSON.parse(atob(token.split(".")[1])) as { exp: number }).exp * 1000;
const FIVE_MINUTES = 5 * 60_000;

async function signIn(): Promise<string> {
  const signedIn = await authProvider.login({ email: server.email, password: server.password });
  expect(signedIn, JSON.stringify(signedIn)).toMatchObject({ success: true });
  const token = await freshAccessToken();
  expect(token).toBeTruthy();
  return token!;
}

describe("the auth provider's session against the real API", () => {
  it("keeps the access token until five minutes before it expires, then refreshes it once", async () => {
    const first = await signIn();
    const expiresAt = expiryOf(first);
    expect(expiresAt - Date.now()).toBeGreaterThan(2 * FIVE_MINUTES);

    vi.useFakeTimers({ toFake: ["Date"], now: expiresAt - FIVE_MINUTES - 5_000 });
    expect(await freshAccessToken()).toBe(first);

    vi.setSystemTime(expiresAt - FIVE_MINUTES + 5_000);
    const [a, b] = await Promise.all([freshAccessToken(), freshAccessToken()]);
    expect(a).not.toBe(first);
    expect(b).toBe(a);
    expect(expiryOf(a!)).toBeGreaterThan(expiresAt);
    vi.useRealTimers();

    // The new token is one the server accepts.
    await server
      .api()
      .get("/api/clients")
      .set({ Authorization: `Bearer ${a}` })
      .expect(200);
    expect(await authProvider.check()).toMatchObject({ authenticated: true });
  });

  it("signs out when the server refuses the refresh, and stays signed in while it cannot be reached", async () => {
    const token = await signIn();
    const expiresAt = expiryOf(token);
    vi.useFakeTimers({ toFake: ["Date"], now: expiresAt - 60_000 });

    const address = server.baseUrl;
    await browseTo("http://127.0.0.1:9");
    expect(await freshAccessToken()).toBe(token);
    expect(await authProvider.check()).toMatchObject({ authenticated: true });

    await browseTo(address);
    await server.t.ctx.db("refresh_tokens").del();
    expect(await freshAccessToken()).toBeNull();
    expect(await authProvider.check()).toMatchObject({ authenticated: false });
  });
});
