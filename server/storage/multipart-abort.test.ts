import http from "node:http";
import type { AddressInfo } from "node:net";
import crypto from "node:crypto";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config";
import { startS3Server, type TestS3Server } from "../test/s3-server";
import type { ObjectStore } from "./object-store";
import { PART_SIZE } from "./s3-store";
import { openStores } from "./stores";

/**
 * The requests the S3 store sends, seen by a plain HTTP relay in front of s3rver: an aborted
 * writer must have sent AbortMultipartUpload by the time its abort() resolves (s3rver itself
 * answers it 405, so only the request can be checked here, not that the parts are gone).
 */
let s3: TestS3Server;
let relay: http.Server;
let store: ObjectStore;
const requests: string[] = [];

beforeAll(async () => {
  s3 = await startS3Server();
  const target = new URL(s3.endpoint);
  relay = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const forward = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on("error", () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  const port = (relay.address() as AddressInfo).port;
  store = (await openStores(loadConfig({ ...s3.env("relay"), S3_ENDPOINT: `http://127.0.0.1:${port}` }))).published;
});
afterAll(async () => {
  relay?.closeAllConnections();
  await new Promise((resolve) => relay?.close(resolve));
  await s3?.stop();
});

describe("an aborted writer in object storage", () => {
  it("has sent AbortMultipartUpload for its upload when abort() resolves, and no object exists", async () => {
    const writer = store.createWriter("aborted.zip");
    const written = pipeline(Readable.from([crypto.randomBytes(PART_SIZE + 1024 * 1024)]), writer.stream, {
      end: false,
    });
    await written;
    // The first part goes up once the second has begun to arrive.
    const started = Date.now();
    while (!requests.some((r) => r.startsWith("PUT ") && r.includes("partNumber=1")) && Date.now() - started < 10_000)
      await new Promise((resolve) => setTimeout(resolve, 20));

    await writer.abort();

    const created = requests.find((r) => r.startsWith("POST ") && r.includes("aborted.zip?uploads"));
    expect(created).toBeDefined();
    expect(requests.some((r) => r.startsWith("DELETE ") && r.includes("aborted.zip?uploadId="))).toBe(true);
    expect(requests.some((r) => r.startsWith("POST ") && r.includes("aborted.zip?uploadId="))).toBe(false);
    expect(await store.stat("aborted.zip")).toBeUndefined();
  });
});
