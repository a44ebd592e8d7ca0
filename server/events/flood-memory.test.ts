import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataFolders, memoryOf, startAppProcess, type AppProcess } from "../test/app-process";

const MB = 1024 * 1024;
let dir: string;
let server: AppProcess;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-flood-"));
  // As `npm start` runs it: few malloc arenas, so freed memory goes back to the system.
  server = await startAppProcess({
    DATABASE_URL: path.join(dir, "db.sqlite3"),
    MALLOC_ARENA_MAX: "2",
    ...dataFolders(dir),
  });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const rss = () => memoryOf(server.pid).rss;

/** A socket from `from` that sends large, useless frames as fast as it is allowed until closed. */
function flooder(from: string, frame: string): Promise<void> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${server.url.replace(/^http/, "ws")}/events`, { localAddress: from });
    let timer: NodeJS.Timeout | undefined;
    ws.once("open", () => {
      timer = setInterval(() => ws.readyState === WebSocket.OPEN && ws.send(frame), 25);
    });
    ws.once("close", () => {
      clearInterval(timer);
      resolve();
    });
    ws.once("error", () => {});
    setTimeout(() => ws.close(), 4_000);
  });
}

describe("memory after a socket flood", () => {
  it("returns to within 50 MB of its level before, once the sockets are gone", async () => {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const before = rss();
    // Frames over the 4 kB cap (each closes its socket at once) and frames just under it, which the
    // server must read: an unknown event, so the socket stays open and no sign-in budget is spent.
    const oversized = JSON.stringify({
      event: "subscribe-to-resources",
      data: { resources: ["clients"], token: "x".repeat(15_000) },
    });
    const underCap = JSON.stringify({ event: "flood", data: "x".repeat(3_900) });
    const addresses = ["127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"];
    await Promise.all(
      addresses.flatMap((from, a) =>
        Array.from({ length: 20 }, () => flooder(from, a % 2 === 0 ? underCap : oversized)),
      ),
    );
    const during = rss();
    // Settled: the lowest reading, taken every 500 ms until it is back within 50 MB or 10 s have passed.
    let after = during;
    for (let i = 0; i < 20 && after - before >= 50 * MB; i++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      after = Math.min(after, rss());
    }
    console.log(
      `server RSS: ${Math.round(before / MB)} MB before, ${Math.round(during / MB)} MB at the end of the flood, ${Math.round(after / MB)} MB settled`,
    );
    expect(after - before).toBeLessThan(50 * MB);
  }, 60_000);
});
