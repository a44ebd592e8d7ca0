import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/harness";
import { signUp } from "./auth-test-helpers";

let t: TestApp;
let server: http.Server;
let port: number;

beforeAll(async () => {
  t = await createTestApp({
    RATE_LIMIT_PER_ACCOUNT: "10",
    RATE_LIMIT_PER_IP: "1000",
    RATE_LIMIT_WINDOW: "60",
    RATE_LIMIT_PER_ACCOUNT_HOURLY: "25",
  });
  await signUp(t.app, "owner@studio.test", "rightpass");
  server = http.createServer(t.app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

/** A sign-in sent from a chosen loopback address (Linux routes all of 127/8 to lo). */
function login(from: string, email: string, password: string): Promise<number> {
  const body = JSON.stringify({ email, password });
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        localAddress: from,
        method: "POST",
        path: "/api/auth/login",
        agent: false,
        headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("sign-in lockout", () => {
  it("locks an account out per address: the owner still signs in from 127.0.0.2 while 127.0.0.1 is locked", async () => {
    for (let i = 0; i < 10; i++) expect(await login("127.0.0.1", "owner@studio.test", "wrongpass")).toBe(401);
    expect(await login("127.0.0.1", "owner@studio.test", "rightpass")).toBe(429);
    expect(await login("127.0.0.2", "owner@studio.test", "rightpass")).toBe(200);
  });

  it("keeps an account-wide ceiling across addresses as the brute-force guard", async () => {
    // 12 attempts so far; the hourly ceiling of 25 is spent from a third address.
    for (let i = 0; i < 9; i++) expect(await login("127.0.0.3", "owner@studio.test", "wrongpass")).toBe(401);
    for (let i = 0; i < 4; i++) expect(await login("127.0.0.4", "owner@studio.test", "wrongpass")).toBe(401);
    expect(await login("127.0.0.5", "owner@studio.test", "rightpass")).toBe(429);
  });
});
