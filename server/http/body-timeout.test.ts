import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeNoisyJpeg } from "../attachments/test-fixtures";
import { createTestApp, createUser, type TestApp } from "../test/harness";
import { insertProjectRow } from "../test/rows";

let t: TestApp;
let server: http.Server;
let port: number;

beforeAll(async () => {
  t = await createTestApp();
  server = http.createServer(t.app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

/**
 * Sends `body` to `path` in `pieces` parts, one every 2 s (by default a byte each); answers what
 * came back and when the server closed the connection.
 */
async function trickle(path: string, headers: Record<string, string>, body: string | Buffer, pieces = body.length) {
  const bytes = Buffer.from(body);
  const size = Math.ceil(bytes.length / pieces);
  const socket = net.connect(port, "127.0.0.1");
  await new Promise((resolve) => socket.once("connect", resolve));
  const started = Date.now();
  const head = Object.entries({ ...headers, "Content-Length": String(bytes.length) })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  socket.write(`POST ${path} HTTP/1.1\r\nHost: localhost\r\n${head}\r\n`);
  let sent = 0;
  // Each piece arrives well before any idle timeout, so only a whole-body deadline ends it early.
  const timer = setInterval(() => {
    if (!socket.destroyed && sent < bytes.length) socket.write(bytes.subarray(sent, (sent += size)));
  }, 2_000);
  let answer = "";
  socket.on("data", (chunk) => (answer += chunk.toString()));
  socket.on("error", () => undefined);
  const closedAfter = await new Promise<number>((resolve) => {
    socket.once("close", () => resolve(Date.now() - started));
    setTimeout(() => resolve(Infinity), 30_000);
  });
  clearInterval(timer);
  socket.destroy();
  return { answer, closedAfter };
}

// Each waits out a timeout on a socket of its own: side by side, the file takes 20 s instead of 50.
describe.concurrent("a JSON body that trickles in", () => {
  it("is cut off with 408 and a closed connection within 20 s (BODY_TIMEOUT_SECONDS, default 15)", async () => {
    const body = JSON.stringify({ email: "slow@example.com", password: "x".repeat(200) });
    const { answer, closedAfter } = await trickle("/api/auth/login", { "Content-Type": "application/json" }, body);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toMatch(/connection: close/i);
    expect(answer).toContain('"statusCode":408');
    expect(closedAfter).toBeLessThan(20_000);
  }, 40_000);

  it("closes the connection within 20 s as well when the trickling body says it is multipart, outside the upload routes", async () => {
    const body = `--b\r\nContent-Disposition: form-data; name="email"\r\n\r\n${"x".repeat(200)}\r\n--b--\r\n`;
    const { closedAfter } = await trickle(
      "/api/auth/login",
      { "Content-Type": "multipart/form-data; boundary=b" },
      body,
    );
    expect(closedAfter).toBeLessThan(20_000);
  }, 40_000);

  it("leaves an upload to its own idle timeout: one arriving over 20 s is stored", async () => {
    const user = await createUser(t.ctx);
    const projectId = await insertProjectRow(t.ctx);
    const body = Buffer.concat([
      Buffer.from('--b\r\nContent-Disposition: form-data; name="file"; filename="slow.jpg"\r\n'),
      Buffer.from("Content-Type: image/jpeg\r\n\r\n"),
      await makeNoisyJpeg(300, 200),
      Buffer.from("\r\n--b--\r\n"),
    ]);
    const { answer, closedAfter } = await trickle(
      `/api/attachments/projects/${projectId}/upload`,
      // Asked to close once answered, so the close marks the answer.
      { "Content-Type": "multipart/form-data; boundary=b", Connection: "close", ...user.auth },
      body,
      10,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 201 /);
    expect(closedAfter).toBeGreaterThan(18_000);
  }, 40_000);

  it("leaves a body that arrives in time alone", async () => {
    const res = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "nobody@example.com", password: "wrong-password" }),
    });
    expect(res.status).toBe(401);
  });
});
