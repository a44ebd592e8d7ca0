import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import express from "express";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveWebApp } from "./web-app";

const SCRIPT = `console.log(${JSON.stringify("photodrop ".repeat(200))});\n`;

describe("the web app's files", () => {
  let dist: string;
  let app: express.Express;

  beforeAll(() => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-dist-"));
    fs.mkdirSync(path.join(dist, "assets"));
    fs.writeFileSync(path.join(dist, "index.html"), "<!doctype html><div id=root></div>");
    const asset = path.join(dist, "assets", "index-AbC123.js");
    fs.writeFileSync(asset, SCRIPT);
    fs.writeFileSync(`${asset}.br`, zlib.brotliCompressSync(SCRIPT));
    fs.writeFileSync(`${asset}.gz`, zlib.gzipSync(SCRIPT));
    app = express();
    serveWebApp(app, dist);
  });
  afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));

  it("sends a hashed asset brotli-compressed when the browser accepts it, cached for a year", async () => {
    const res = await request(app).get("/assets/index-AbC123.js").set("Accept-Encoding", "gzip, deflate, br");
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers["content-type"]).toMatch(/javascript/);
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(res.headers.vary).toMatch(/Accept-Encoding/i);
    // The stored .br file itself went over the wire (supertest decodes it for us).
    expect(Number(res.headers["content-length"])).toBe(zlib.brotliCompressSync(SCRIPT).length);
    expect(res.text).toBe(SCRIPT);
  });

  it("falls back to gzip, and to the plain file for a client that accepts neither", async () => {
    const gzip = await request(app).get("/assets/index-AbC123.js").set("Accept-Encoding", "gzip");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gzip.text).toBe(SCRIPT);
    expect(gzip.headers["cache-control"]).toBe("public, max-age=31536000, immutable");

    const plain = await request(app).get("/assets/index-AbC123.js").set("Accept-Encoding", "identity");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.text).toBe(SCRIPT);
  });

  it("answers index.html for deep links, never cached without a check", async () => {
    const res = await request(app).get("/projects/12");
    expect(res.status).toBe(200);
    expect(res.text).toContain("<div id=root>");
    expect(res.headers["cache-control"]).toBe("no-cache");
  });
});
