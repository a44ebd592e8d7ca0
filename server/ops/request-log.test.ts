import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeImage } from "../attachments/test-fixtures";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { insertProjectRow } from "../test/rows";
import { publishDelivery } from "../delivery/test-fixtures";
import { getBinary } from "../test/binary-body";
import { until } from "../test/wait";

let t: TestApp;
let user: TestUser;

beforeAll(async () => {
  t = await createTestApp({ SLOW_REQUEST_MS: "60000" }, { captureLog: true });
  user = await createUser(t.ctx);
});
afterAll(() => t.close());

interface Line {
  level: number;
  msg: string;
  method: string;
  route: string;
  status: number | null;
  ms: number;
  userId: string | null;
}

const requestLines = () =>
  t.logLines.map((l) => JSON.parse(l) as Line).filter((l) => l.msg === "request" || l.msg === "slow request");

/** The log lines written for what `act` did (the line is written when the answer has ended). */
async function linesFor(act: () => Promise<unknown>, expected: number): Promise<Line[]> {
  const from = requestLines().length;
  await act();
  return (await until(requestLines, (all) => all.length >= from + expected)).slice(from);
}

describe("request logging", () => {
  it("writes one info line per request with method, route template, status, duration and user id", async () => {
    const lines = await linesFor(() => request(t.app).get("/api/clients/424242").set(user.auth), 1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      msg: "request",
      method: "GET",
      route: "/api/clients/:id",
      status: 404,
      userId: user.uid,
    });
    expect(lines[0].ms).toEqual(expect.any(Number));
    // Only these fields, none of which can hold a secret: the line is written without redaction.
    expect(Object.keys(lines[0]).sort()).toEqual(
      ["aborted", "hostname", "level", "method", "ms", "msg", "pid", "route", "status", "time", "userId"].sort(),
    );
  });

  it("names no user before sign-in and puts unknown paths under one label", async () => {
    const [line] = await linesFor(() => request(t.app).get("/api/nothing/here?secret=1"), 1);
    expect(line).toMatchObject({ method: "GET", route: "(unmatched)", userId: null });
  });

  it("never writes a token, a signed query string or a published ZIP name", async () => {
    const projectId = await insertProjectRow(t.ctx);
    const uploaded = await request(t.app)
      .post(`/api/attachments/projects/${projectId}/upload`)
      .set(user.auth)
      .attach("file", await makeImage("jpeg"), "a.jpg");
    expect(uploaded.status).toBe(201);
    const signed: string = uploaded.body.thumbnailUrl ?? uploaded.body.url;
    expect(signed).toMatch(/sig=/);
    const zipName = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.zip";
    const lines = await linesFor(async () => {
      expect((await request(t.app).get(signed)).status).toBe(200);
      await request(t.app).get(`/published/${zipName}`);
    }, 2);
    expect(lines.map((l) => l.route)).toEqual([
      expect.stringMatching(/^\/api\/attachments\/:id\//),
      expect.stringMatching(/^\/published\//),
    ]);
    const text = t.logLines.join("\n");
    expect(text).not.toContain(user.token);
    expect(text).not.toContain(new URL(signed, "http://x").searchParams.get("sig")!);
    expect(text).not.toContain(zipName);
  });

  it("writes a gallery's answered thumbnails at debug, as probes, and a refused one at info", async () => {
    const delivery = await publishDelivery(t, user);
    const lines = await linesFor(async () => {
      expect((await getBinary(t.app, `${delivery.page}/t/1`)).status).toBe(200);
      expect((await request(t.app).get(`${delivery.page}/t/9`)).status).toBe(404);
      expect((await getBinary(t.app, `${delivery.page}/p/1`)).status).toBe(200);
      expect((await request(t.app).get("/healthz")).status).toBe(200);
    }, 4);
    expect(lines.map((l) => [l.route, l.status, l.level])).toEqual([
      ["/d/:token/t/:n", 200, 20],
      ["/d/:token/t/:n", 404, 30],
      ["/d/:token/p/:n", 200, 30],
      ["/healthz", 200, 20],
    ]);
  });

  it("writes requests slower than SLOW_REQUEST_MS at warn", async () => {
    const slow = await createTestApp({ SLOW_REQUEST_MS: "1" }, { captureLog: true });
    try {
      const projectId = await insertProjectRow(slow.ctx);
      const owner = await createUser(slow.ctx);
      const res = await request(slow.app)
        .post(`/api/attachments/projects/${projectId}/upload`)
        .set(owner.auth)
        .attach("file", await makeImage("png", 800, 600), "big.png");
      expect(res.status).toBe(201);
      const line = await until(
        () => slow.logLines.map((l) => JSON.parse(l)).find((l) => l.route === "/api/attachments/projects/:id/upload"),
        (l) => l !== undefined,
      );
      expect(line).toMatchObject({ level: 40, msg: "slow request", status: 201 });
    } finally {
      await slow.close();
    }
  });
});
