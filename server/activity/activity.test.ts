import http from "node:http";
import type { AddressInfo } from "node:net";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { createUser } from "../test/harness";
import { until } from "../test/wait";
import { cookiesOf, locate } from "../delivery/test-fixtures";
import { getBinary } from "../test/binary-body";
import { attachEventsServer } from "../events/events-server";
import { TestSocket } from "../events/test-socket";
import type { DeliveryActivity } from "../../api/types";
import { activityOf, linkIn, sendMail, setDelivery, studioFixture, type Studio } from "../sending/test-fixtures";
import { recordingsSettled } from "./activity.service";

const fixture = studioFixture();
let s: Studio;

const today = () => new Date().toISOString().slice(0, 10);

/** Sends the wedding to Ana and opens her mail's link: the cookie her browser then has. */
async function anaOpensHerMail(): Promise<string> {
  await sendMail(s.t, s.staff, s.delivery.id, { contactIds: [s.ana] }).expect(200);
  const opened = await request(s.t.app).get(linkIn(fixture.mails[0]));
  expect(opened.status).toBe(302);
  return cookiesOf(opened);
}

async function activityWhenSettled(): Promise<DeliveryActivity[]> {
  await recordingsSettled(s.t.ctx);
  return activityOf(s.t, s.staff, s.delivery.id);
}

describe("Delivery activity", () => {
  it("lists what happened newest first: the send, views per day, passcode failures, downloads by whom, the new link", async () => {
    s = await fixture.studio();
    const ana = await anaOpensHerMail();
    const page = s.delivery.page;
    await request(s.t.app).get(page).set("Cookie", ana).expect(200);
    await request(s.t.app).get(page).set("Cookie", ana).expect(200);
    await request(s.t.app).get(page).expect(200);
    // A HEAD is no view; neither is the passcode form.
    await request(s.t.app).head(page).expect(200);

    await setDelivery(s, { passcode: "sunflower" });
    const unlock = (passcode: string) =>
      request(s.t.app).post(`${page}/unlock`).set("Cookie", ana).type("form").send({ passcode });
    expect((await unlock("wrong-one")).status).toBe(401);
    expect((await unlock("wrong-two")).status).toBe(401);
    const unlocked = await unlock("sunflower");
    expect(unlocked.status).toBe(303);
    const cookies = `${ana}; ${cookiesOf(unlocked)}`;
    await request(s.t.app).get(page).set("Cookie", cookies).expect(200);

    await request(s.t.app).get(`${page}/p/2/download`).set("Cookie", cookies).expect(200);
    // A photo's download is recorded beside its answer: recorded before the ZIP's, or the order below is luck.
    await recordingsSettled(s.t.ctx);
    const zip = await getBinary(s.t.app, `${page}/all.zip`, { Cookie: cookies });
    expect(zip.status).toBe(200);
    // The ZIP's download is recorded when its response closes, which may come after the client has every byte.
    await recordingsSettled(s.t.ctx);
    await request(s.t.app).post(`/api/projects/${s.delivery.id}/delivery/regenerate`).set(s.staff.auth).expect(200);

    const activity = await activityWhenSettled();
    expect(activity.map((a) => a.type)).toEqual([
      "link_regenerated",
      "download",
      "photo_download",
      "views",
      "passcode_failures",
      "sent",
    ]);
    const [regenerated, download, photo, views, failures, sent] = activity;
    expect(regenerated).toMatchObject({ by: "Ann Staff", recipients: [] });
    expect(download).toMatchObject({ recipients: ["Ana Lima <ana@lima.test>"], count: 1, day: null, size: "original" });
    expect(photo).toMatchObject({ photo: "two.jpg", size: "original", recipients: ["Ana Lima <ana@lima.test>"] });
    expect(views).toMatchObject({ count: 4, day: today() });
    expect(failures).toMatchObject({ count: 2, day: today() });
    expect(sent).toMatchObject({ by: "Ann Staff", recipients: ["Ana Lima <ana@lima.test>"], failed: [] });
    for (const entry of activity) {
      expect(entry.projectId).toBe(s.delivery.id);
      expect(Date.parse(entry.at)).toBeGreaterThan(Date.now() - 60_000);
    }
    expect(activity.map((a) => a.at)).toEqual([...activity.map((a) => a.at)].sort().reverse());

    // The old link's key no longer names anyone: the new link's downloads are nobody's in particular.
    const renamed = await locate(s.t, s.delivery.id);
    expect((await request(s.t.app).get(linkIn(fixture.mails[0]))).headers["set-cookie"]).toBeUndefined();
    expect(renamed.token).not.toBe(s.delivery.token);
  });

  it("pages newest first with the total in X-Total-Count, and refuses what it cannot answer", async () => {
    s = await fixture.studio();
    for (let i = 0; i < 5; i++)
      await request(s.t.app).post(`/api/projects/${s.delivery.id}/delivery/regenerate`).set(s.staff.auth).expect(200);
    await recordingsSettled(s.t.ctx);
    const all = await activityOf(s.t, s.staff, s.delivery.id);
    expect(all).toHaveLength(5);
    const page = (start: number, end: number) =>
      request(s.t.app).get(`/api/projects/${s.delivery.id}/activity?_start=${start}&_end=${end}`).set(s.staff.auth);
    const first = await page(0, 2);
    expect(first.headers["x-total-count"]).toBe("5");
    expect((first.body as DeliveryActivity[]).map((a) => a.id)).toEqual(all.slice(0, 2).map((a) => a.id));
    expect(((await page(4, 6)).body as DeliveryActivity[]).map((a) => a.id)).toEqual([all[4].id]);

    expect((await request(s.t.app).get("/api/projects/999999/activity").set(s.staff.auth)).status).toBe(404);
    expect((await page(3, 1)).status).toBe(400);
    const sorted = await request(s.t.app).get(`/api/projects/${s.delivery.id}/activity?_sort=type`).set(s.staff.auth);
    expect(sorted.status).toBe(400);
    expect((await request(s.t.app).get(`/api/projects/${s.delivery.id}/activity`)).status).toBe(401);
    const waiting = await createUser(s.t.ctx, { hasAccess: false });
    expect((await request(s.t.app).get(`/api/projects/${s.delivery.id}/activity`).set(waiting.auth)).status).toBe(403);
  });

  it("is announced over /events as a change of the project, so an open page refetches it", async () => {
    s = await fixture.studio();
    const server = http.createServer(s.t.app);
    const hub = attachEventsServer(server, s.t.ctx);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const socket = await TestSocket.open(`ws://127.0.0.1:${(server.address() as AddressInfo).port}/events`);
    try {
      socket.send("subscribe-to-resources", { resources: ["projects"], token: s.staff.token });
      expect((await socket.next()).event).toBe("subscribed");
      await sendMail(s.t, s.staff, s.delivery.id, { emails: ["friend@else.test"] }).expect(200);
      const frame = await socket.next();
      expect(frame).toMatchObject({
        event: "resource-changed",
        data: { resource: "projects", type: "updated", ids: [s.delivery.id] },
      });
      expect((await activityOf(s.t, s.staff, s.delivery.id)).map((a) => a.type)).toEqual(["sent"]);
    } finally {
      socket.close();
      await hub.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("is deleted with its project, with the project's recipients and notices", async () => {
    s = await fixture.studio();
    const ana = await anaOpensHerMail();
    await getBinary(s.t.app, `${s.delivery.page}/all.zip`, { Cookie: ana }).expect(200);
    await until(
      () => s.t.ctx.db("delivery_notices").where({ project_id: s.delivery.id }),
      (rows) => rows.length === 1,
    );
    await recordingsSettled(s.t.ctx);
    await request(s.t.app).delete(`/api/projects/${s.delivery.id}`).set(s.staff.auth).expect(204);
    for (const table of ["delivery_activity", "delivery_recipients", "delivery_notices"])
      expect(await s.t.ctx.db(table).where({ project_id: s.delivery.id })).toEqual([]);
    // The address's unsubscribe link outlives the project it came with.
    expect(await s.t.ctx.db("mail_addresses").pluck("email")).toEqual(["ana@lima.test"]);
  });
});
