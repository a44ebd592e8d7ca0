import http from "node:http";
import type { AddressInfo } from "node:net";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attachEventsServer } from "../events/events-server";
import { TestSocket } from "../events/test-socket";
import { makeImage } from "../attachments/test-fixtures";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { insertProjectRow } from "../test/rows";
import { publishDelivery } from "../delivery/test-fixtures";
import { getBinary } from "../test/binary-body";
import { until } from "../test/wait";

const TOKEN = "metrics-secret-token-for-tests";
let t: TestApp;
let user: TestUser;

beforeAll(async () => {
  t = await createTestApp({ METRICS_TOKEN: TOKEN });
  user = await createUser(t.ctx);
});
afterAll(async () => {
  await t.close();
});

type Labels = Record<string, string>;

/** The scrape as `name → samples`, read with a Prometheus text parser. */
async function scrape() {
  const res = await request(t.app).get("/metrics").set("Authorization", `Bearer ${TOKEN}`);
  expect(res.status).toBe(200);
  expect(res.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
  const families = new Map(parsePrometheusTextFormat(res.text).map((f) => [f.name, f]));
  // The parser folds a histogram's labelled series into one; its `_count` lines alone parse as a gauge per label set.
  const countLines = res.text.split("\n").filter((line) => /^\w+_count\{/.test(line));
  const counts = new Map(
    [...new Set(countLines.map((line) => line.slice(0, line.indexOf("{"))))].map((name) => {
      const text = [`# TYPE ${name} gauge`, ...countLines.filter((l) => l.startsWith(`${name}{`)), ""].join("\n");
      return [name, parsePrometheusTextFormat(text)[0]];
    }),
  );
  const matches = (sample: { labels?: Labels }, labels: Labels) =>
    Object.entries(labels).every(([k, v]) => sample.labels?.[k] === v);
  return {
    families,
    /** A counter or gauge sample's value (0 when it has not been written yet). */
    value(name: string, labels: Labels = {}) {
      const sample = families.get(name)?.metrics.find((m) => matches(m, labels));
      return sample ? Number(sample.value) : 0;
    },
    /** A histogram's observation count for one label set. */
    count(name: string, labels: Labels = {}) {
      const sample = counts.get(`${name}_count`)?.metrics.find((m) => matches(m, labels));
      return sample ? Number(sample.value) : 0;
    },
  };
}

describe("GET /metrics access", () => {
  it("is off (404) when METRICS_TOKEN is not set", async () => {
    const off = await createTestApp();
    try {
      const res = await request(off.app).get("/metrics").set("Authorization", `Bearer ${TOKEN}`);
      expect(res.status).toBe(404);
    } finally {
      await off.close();
    }
  });

  it("refuses a scrape without a token (401) and with a wrong one (403)", async () => {
    const none = await request(t.app).get("/metrics");
    expect(none.status).toBe(401);
    expect(none.headers["www-authenticate"]).toMatch(/^Bearer/);
    expect(none.body).toEqual({ statusCode: 401, message: "Authentication required" });
    const wrong = await request(t.app).get("/metrics").set("Authorization", `Bearer ${TOKEN}x`);
    expect(wrong.status).toBe(403);
    expect(wrong.text).not.toContain("photodrop_");
  });

  it("includes the default process metrics", async () => {
    const m = await scrape();
    expect(m.value("process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(m.families.has("nodejs_eventloop_lag_seconds")).toBe(true);
  });
});

describe("counters after uploads and a publish", () => {
  it("move by exactly what was done, labelled by route template and never by raw URL", async () => {
    const projectId = await insertProjectRow(t.ctx, { name: "Metrics wedding" });
    const uploadRoute = "/api/attachments/projects/:id/upload-multiple";
    const one = await makeImage("jpeg", 80, 60);
    const two = await makeImage("png", 40, 30);
    const before = await scrape();

    const accepted = await request(t.app)
      .post(`/api/attachments/projects/${projectId}/upload-multiple`)
      .set(user.auth)
      .attach("files", one, "one.jpg")
      .attach("files", two, "two.png");
    expect(accepted.status).toBe(201);
    const refused = await request(t.app)
      .post(`/api/attachments/projects/${projectId}/upload`)
      .set(user.auth)
      .attach("file", Buffer.from("not an image at all"), "fake.jpg");
    expect(refused.status).toBe(415);
    const missing = await request(t.app)
      .post(`/api/attachments/projects/999999/upload`)
      .set(user.auth)
      .attach("file", one, "x.jpg");
    expect(missing.status).toBe(404);

    const published = await request(t.app).post(`/api/projects/${projectId}/publish`).set(user.auth);
    expect(published.status).toBe(202);
    const done = await until(
      () => request(t.app).get(`/api/projects/${projectId}`).set(user.auth),
      (res) => res.body.publishStatus !== "publishing",
    );
    expect(done.body.publishStatus).toBe("published");
    const after = await until(
      scrape,
      (m) => m.value("photodrop_publish_bytes_total") > before.value("photodrop_publish_bytes_total"),
    );

    const delta = (name: string, labels: Labels = {}) => after.value(name, labels) - before.value(name, labels);
    expect(delta("photodrop_uploads_total")).toBe(2);
    expect(delta("photodrop_upload_bytes_total")).toBe(one.length + two.length);
    expect(delta("photodrop_upload_refusals_total", { reason: "not_an_image" })).toBe(1);
    expect(delta("photodrop_upload_refusals_total", { reason: "project_not_found" })).toBe(1);
    const refusals = after.families
      .get("photodrop_upload_refusals_total")!
      .metrics.reduce((sum, m) => sum + Number(m.value), 0);
    expect(refusals).toBe(2);

    expect(delta("photodrop_publish_builds_total", { outcome: "completed" })).toBe(1);
    expect(delta("photodrop_publish_builds_total", { outcome: "failed" })).toBe(0);
    expect(after.count("photodrop_publish_build_duration_seconds", { outcome: "completed" })).toBe(1);
    const zip = await request(t.app).get(done.body.downloadUrl);
    expect(delta("photodrop_publish_bytes_total")).toBe(Number(zip.headers["content-length"]));
    expect(after.value("photodrop_publish_queue_length")).toBe(0);
    expect(after.families.has("photodrop_thumbnails_waiting")).toBe(true);

    const requests = (labels: Labels) => delta("photodrop_http_requests_total", labels);
    expect(requests({ method: "POST", route: uploadRoute, status: "201" })).toBe(1);
    expect(requests({ method: "POST", route: "/api/attachments/projects/:id/upload", status: "415" })).toBe(1);
    expect(requests({ method: "POST", route: "/api/attachments/projects/:id/upload", status: "404" })).toBe(1);
    expect(requests({ method: "POST", route: "/api/projects/:id/publish", status: "202" })).toBe(1);
    expect(
      after.count("photodrop_http_request_duration_seconds", { method: "POST", route: uploadRoute, status: "201" }),
    ).toBe(1);

    const routes = after.families.get("photodrop_http_requests_total")!.metrics.map((m) => m.labels!.route);
    for (const route of routes) expect(route).not.toMatch(/\d|\.zip|\?/);
  }, 60_000);

  it("puts unknown paths under one label", async () => {
    const before = await scrape();
    for (const path of ["/api/nothing/1", "/api/nothing/2", "/no-such-thing.txt"])
      await request(t.app).get(path).set(user.auth);
    const after = await scrape();
    const labels = { method: "GET", route: "(unmatched)" };
    expect(
      after.value("photodrop_http_requests_total", { ...labels, status: "404" }) -
        before.value("photodrop_http_requests_total", { ...labels, status: "404" }),
    ).toBe(2);
  });

  it("counts a gallery's thumbnails however they are answered: read first, from memory after, and 304", async () => {
    const delivery = await publishDelivery(t, user);
    const thumbnail = (headers: Record<string, string> = {}) => getBinary(t.app, `${delivery.page}/t/1`, headers);
    const before = await scrape();
    expect((await thumbnail()).status).toBe(200);
    const again = await thumbnail();
    expect(again.status).toBe(200);
    expect((await thumbnail({ "If-None-Match": again.headers.etag })).status).toBe(304);
    const after = await scrape();
    const labels = { method: "GET", route: "/d/:token/t/:n" };
    const delta = (status: string) =>
      after.value("photodrop_http_requests_total", { ...labels, status }) -
      before.value("photodrop_http_requests_total", { ...labels, status });
    expect([delta("200"), delta("304")]).toEqual([2, 1]);
    const timed = (m: typeof after, status: string) =>
      m.count("photodrop_http_request_duration_seconds", { ...labels, status });
    expect(timed(after, "200") - timed(before, "200")).toBe(2);
  });
});

describe("the /events gauge", () => {
  it("counts open sockets and forgets closed ones", async () => {
    const server = http.createServer(t.app);
    const hub = attachEventsServer(server, t.ctx);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/events`;
      const base = (await scrape()).value("photodrop_events_connections");
      const a = await TestSocket.open(url);
      const b = await TestSocket.open(url);
      await until(scrape, (m) => m.value("photodrop_events_connections") === base + 2);
      a.ws.close();
      await a.closed;
      await until(scrape, (m) => m.value("photodrop_events_connections") === base + 1);
      b.ws.close();
      await until(scrape, (m) => m.value("photodrop_events_connections") === base);
    } finally {
      await hub.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
