import { Blob, File } from "node:buffer";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import request from "supertest";
import WebSocket from "ws";
import { afterAll, beforeAll, expect } from "vitest";
import { attachEventsServer } from "../../../server/events/events-server";
import { createTestApp, createUser, type TestApp, type TestUser } from "../../../server/test/harness";
import { authProvider } from "../providers/auth-provider";
import { http } from "../providers/http";

export interface WebAppServer {
  t: TestApp;
  baseUrl: string;
  email: string;
  password: string;
  /** Another member of staff, changing things through the API while the web app watches. */
  colleague: TestUser;
  api: () => ReturnType<typeof request>;
  close(): Promise<void>;
}

/**
 * The real API and /events socket on a free port, with one approved admin (the first account,
 * signed up through the API), for component tests that run the web app's providers in jsdom.
 */
export async function startWebAppServer(): Promise<WebAppServer> {
  const t = await createTestApp({ RATE_LIMIT_PER_IP: "100000", RATE_LIMIT_PER_ACCOUNT: "100000" });
  const server = createServer(t.app);
  const hub = attachEventsServer(server, t.ctx);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const email = "first-admin@studio.test";
  const password = "component-test-password-1";
  const signUp = await request(t.app).post("/api/auth/signup").send({ email, password, displayName: "First Admin" });
  if (signUp.status !== 201) throw new Error(`sign-up failed: ${signUp.status} ${JSON.stringify(signUp.body)}`);
  return {
    t,
    baseUrl,
    email,
    password,
    colleague: await createUser(t.ctx),
    api: () => request(t.app),
    async close() {
      await hub.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await t.close();
    },
  };
}

/**
 * A test file's server: started, browsed to and (with `signIn`) signed in to as its admin before
 * the file's tests, closed after them. The object is filled in once it has started.
 */
export function webAppServerPerFile(options: { signIn?: boolean } = {}): WebAppServer {
  const server = {} as WebAppServer;
  let started: WebAppServer | undefined;
  beforeAll(async () => {
    started = await startWebAppServer();
    Object.assign(server, started);
    await browseTo(server.baseUrl);
    if (!options.signIn) return;
    const signedIn = await authProvider.login({ email: server.email, password: server.password });
    expect(signedIn, JSON.stringify(signedIn)).toMatchObject({ success: true });
  });
  afterAll(async () => {
    await started?.close();
  });
  return server;
}

/**
 * Points jsdom's document, and so the app's HTTP client and events socket, at that server.
 * jsdom's own XMLHttpRequest and WebSocket cannot reach a server under this Node, so the app's
 * axios client uses its Node adapter (with the absolute address) and the socket is the `ws` package's browser-compatible one.
 */
export async function browseTo(baseUrl: string) {
  const scope = globalThis as unknown as Record<string, unknown>;
  http.defaults.adapter = "http";
  http.defaults.baseURL = `${baseUrl}/api`;
  keepCookiesLikeABrowser();
  scope.WebSocket = WebSocket;
  // Uploads: the Node adapter streams Node's own FormData, File and Blob (jsdom's are opaque to it).
  const form = new Response("", { headers: { "content-type": "application/x-www-form-urlencoded" } });
  scope.FormData = (await form.formData()).constructor;
  scope.File = File;
  scope.Blob = Blob;
  // jsdom has no layout, so no media queries: every query is a non-match (a desktop-less screen).
  window.matchMedia ??= (media: string) =>
    ({
      matches: false,
      media,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
  (globalThis as unknown as { jsdom: { reconfigure(options: { url: string }): void } }).jsdom.reconfigure({
    url: `${baseUrl}/`,
  });
}

let cookieJar: Map<string, string> | undefined;

/**
 * Node's HTTP adapter keeps no cookies; a browser keeps the session's HttpOnly refresh cookie
 * and sends it back to /api/auth. This does the same for the app's client in jsdom.
 */
function keepCookiesLikeABrowser() {
  if (cookieJar) return;
  const jar = (cookieJar = new Map());
  const remember = (headers: Record<string, unknown> | undefined) => {
    for (const line of ([] as string[]).concat((headers?.["set-cookie"] as string[] | undefined) ?? [])) {
      const [pair] = line.split(";");
      const eq = pair.indexOf("=");
      const [name, value] = [pair.slice(0, eq).trim(), pair.slice(eq + 1).trim()];
      if (value) jar.set(name, value);
      else jar.delete(name);
    }
  };
  http.interceptors.request.use((config) => {
    if (jar.size > 0 && config.url?.startsWith("/auth/")) {
      config.headers.set("Cookie", [...jar].map(([name, value]) => `${name}=${value}`).join("; "));
    }
    return config;
  });
  http.interceptors.response.use(
    (response) => {
      remember(response.headers);
      return response;
    },
    (error: { response?: { headers?: Record<string, unknown> } }) => {
      remember(error.response?.headers);
      return Promise.reject(error);
    },
  );
}
