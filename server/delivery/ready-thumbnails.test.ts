import http from "node:http";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { appWithUser } from "../test/app-with-user";
import type { TestApp } from "../test/harness";
import { recordPublishEvents } from "../publish/test-fixtures";
import { isPostgresUrl } from "../db/dialect";
import { deliveryCache } from "./delivery-cache";
import { photosOf } from "./delivery.repository";
import { projectPhotoOrder } from "../attachments/attachments.repository";
import { cookiesOf, locate, publishDelivery, type PublishedDelivery } from "./test-fixtures";
import { getBinary } from "../test/binary-body";

const made = appWithUser();

const get = (url: string, headers: Record<string, string> = {}) => getBinary(made.t.app, url, headers);
const staff = () => made.user.auth;

/**
 * Asks for every thumbnail once, so the link, its photos and the thumbnails are in memory: answered
 * at once from then on with one process, never on PostgreSQL (whose bus a request must wait for).
 */
async function warm(d: PublishedDelivery, count: number) {
  for (let n = 1; n <= count; n++) expect((await get(`${d.page}/t/${n}`)).status).toBe(200);
  const alone = made.t.ctx.events.alone;
  expect(deliveryCache(made.t.ctx).peek(d.token) !== undefined).toBe(alone);
  expect(alone).toBe(!isPostgresUrl(made.t.ctx.config.databaseUrl));
}

/** A request's status, and whether the app had answered it by the time it returned (the ready path). */
async function answered(t: TestApp, url: string, headers: Record<string, string> = {}, method: "get" | "head" = "get") {
  let atOnce: boolean | undefined;
  const server = http.createServer(t.app.serverOptions, (req, res) => {
    t.app(req, res);
    atOnce = res.writableEnded;
  });
  const res = await request(server)[method](url).set(headers);
  return { status: res.status, atOnce };
}

const withoutDate = (headers: Record<string, string>) => {
  const rest = { ...headers };
  delete rest.date;
  return rest;
};

describe("thumbnails answered from memory", () => {
  it("carry the same status, headers and bytes as the general path's answer", async () => {
    const d = await publishDelivery(made.t, made.user);
    await warm(d, 3);
    const ready = await get(`${d.page}/t/2`);
    // A precondition that holds sends the request the general way, to the same whole answer.
    const general = await get(`${d.page}/t/2`, { "If-Match": "*" });
    expect(ready.status).toBe(200);
    expect(general.status).toBe(200);
    expect(withoutDate(ready.headers)).toEqual(withoutDate(general.headers));
    expect(ready.headers["content-type"]).toBe("image/webp");
    expect((ready.body as Buffer).equals(general.body as Buffer)).toBe(true);
    // A revalidation, answered here and the general way.
    const current = { "If-None-Match": `"another", ${ready.headers.etag}` };
    const notModified = await get(`${d.page}/t/2`, current);
    const generalNotModified = await get(`${d.page}/t/2`, { ...current, "If-Match": "*" });
    expect(notModified.status).toBe(304);
    expect(generalNotModified.status).toBe(304);
    expect(withoutDate(notModified.headers)).toEqual(withoutDate(generalNotModified.headers));
    expect(notModified.headers["content-type"]).toBeUndefined();
    expect((await get(`${d.page}/t/2`, { "If-None-Match": '"another"' })).status).toBe(200);
    expect((await get(`${d.page}/t/2`, { ...current, "Cache-Control": "no-cache" })).status).toBe(200);
    expect((await get(`${d.page}/t/2`, { Range: "bytes=0-9" })).status).toBe(206);
    expect((await get(`${d.page}/t/4`)).status).toBe(404);

    // Which of those the ready path answered: with one process, the whole thumbnail and its 304.
    const alone = made.t.ctx.events.alone;
    expect(await answered(made.t, `${d.page}/t/2`)).toEqual({ status: 200, atOnce: alone });
    expect(await answered(made.t, `${d.page}/t/2`, current)).toEqual({ status: 304, atOnce: alone });
    expect(await answered(made.t, `${d.page}/t/2`, { "If-Match": "*" })).toEqual({ status: 200, atOnce: false });
    expect(await answered(made.t, `${d.page}/t/2`, { Range: "bytes=0-9" })).toEqual({ status: 206, atOnce: false });
    expect(await answered(made.t, `${d.page}/t/2`, {}, "head")).toEqual({ status: 200, atOnce: false });
    expect(await answered(made.t, `${d.page}/t/4`)).toEqual({ status: 404, atOnce: false });
  });

  it("stop at the next request once a passcode is set, and start again with its cookie or once it is removed", async () => {
    const d = await publishDelivery(made.t, made.user);
    await warm(d, 3);
    const settings = (body: object) =>
      request(made.t.app).put(`/api/projects/${d.id}/delivery`).set(staff()).send(body);
    expect((await settings({ passcode: "open sesame" })).status).toBe(200);
    // Again once the link is back in memory, with its passcode.
    for (const n of [1, 1, 2])
      expect(await answered(made.t, `${d.page}/t/${n}`)).toEqual({ status: 401, atOnce: false });
    const unlock = await request(made.t.app).post(`${d.page}/unlock`).type("form").send({ passcode: "open sesame" });
    expect(unlock.status).toBe(303);
    expect((await get(`${d.page}/t/1`, { Cookie: cookiesOf(unlock) })).status).toBe(200);
    expect((await settings({ passcode: null })).status).toBe(200);
    expect((await get(`${d.page}/t/1`)).status).toBe(200);
  });

  it("stop at the next request after a regenerate, an unpublish or a photo deleted", async () => {
    const regenerated = await publishDelivery(made.t, made.user);
    await warm(regenerated, 3);
    const api = () => request(made.t.app);
    expect((await api().post(`/api/projects/${regenerated.id}/delivery/regenerate`).set(staff())).status).toBe(200);
    expect((await get(`${regenerated.page}/t/1`)).status).toBe(404);
    expect((await get(`${(await locate(made.t, regenerated.id)).page}/t/1`)).status).toBe(200);

    const unpublished = await publishDelivery(made.t, made.user);
    await warm(unpublished, 3);
    expect((await api().delete(`/api/projects/${unpublished.id}/publish`).set(staff())).status).toBe(200);
    // Its link is kept for the next publish: "being updated" until then.
    expect((await get(`${unpublished.page}/t/1`)).status).toBe(503);

    const trimmed = await publishDelivery(made.t, made.user);
    await warm(trimmed, 3);
    const thirdBefore = (await get(`${trimmed.page}/t/3`)).body as Buffer;
    // A published project's photos cannot be deleted: unpublished, trimmed, published again.
    expect((await api().delete(`/api/projects/${trimmed.id}/publish`).set(staff())).status).toBe(200);
    const order = await projectPhotoOrder(made.t.ctx.db, trimmed.id);
    const [, second] = await photosOf(made.t.ctx.db, trimmed.id, order!);
    expect((await api().delete(`/api/attachments/${second.id}`).set(staff())).status).toBe(204);
    const events = recordPublishEvents(made.t.ctx, trimmed.id);
    expect((await api().post(`/api/projects/${trimmed.id}/publish`).set(staff())).status).toBe(202);
    await events.next("publish_completed");
    events.stop();
    const again = await locate(made.t, trimmed.id);
    expect((await get(`${again.page}/t/3`)).status).toBe(404);
    expect(((await get(`${again.page}/t/2`)).body as Buffer).equals(thirdBefore)).toBe(true);
  });
});

describe("thumbnails handed to the proxy (SENDFILE_HEADER)", () => {
  const proxied = appWithUser({ SENDFILE_HEADER: "X-Accel-Redirect" });
  const getProxied = (url: string, headers: Record<string, string> = {}) => getBinary(proxied.t.app, url, headers);

  it("are handed over again with the same headers, and refused at the next request once a passcode is set", async () => {
    const d = await publishDelivery(proxied.t, proxied.user);
    const first = await getProxied(`${d.page}/t/1`);
    expect(first.headers["x-accel-redirect"]).toMatch(/^\/_photodrop_files\/uploads\/.+\.thumb\.webp$/);
    expect(await answered(proxied.t, `${d.page}/t/1`)).toEqual({ status: 200, atOnce: proxied.t.ctx.events.alone });
    const ready = await getProxied(`${d.page}/t/1`);
    const general = await getProxied(`${d.page}/t/1`, { "If-Match": "*" });
    expect(ready.status).toBe(200);
    expect(withoutDate(ready.headers)).toEqual(withoutDate(general.headers));
    expect(withoutDate(ready.headers)).toEqual(withoutDate(first.headers));
    expect((ready.body as Buffer).length).toBe(0);
    const settings = { passcode: "open sesame" };
    const set = await request(proxied.t.app)
      .put(`/api/projects/${d.id}/delivery`)
      .set(proxied.user.auth)
      .send(settings);
    expect(set.status).toBe(200);
    for (const n of [1, 1, 2]) {
      const refused = await getProxied(`${d.page}/t/${n}`);
      expect(refused.status).toBe(401);
      expect(refused.headers["x-accel-redirect"]).toBeUndefined();
    }
  });
});
