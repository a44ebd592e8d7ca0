import request from "supertest";
import { describe, expect, it } from "vitest";
import { createUser } from "../test/harness";
import { mailParts } from "../test/mail-parts";
import { recordingsSettled } from "../activity/activity.service";
import type { ResourceChange } from "../events/bus";
import type { FavouriteSelection, FavouriteVisitor } from "../../api/favourites";
import { PUBLIC_URL, studioFixture, type Studio } from "../sending/test-fixtures";
import { positions, visitorOf } from "./test-fixtures";

const fixture = studioFixture();
let s: Studio;

const lists = async (projectId = s.delivery.id) => {
  const res = await request(s.t.app).get(`/api/projects/${projectId}/favourites`).set(s.staff.auth).expect(200);
  return res.body as FavouriteVisitor[];
};
const selection = async (visitorId: number, projectId = s.delivery.id) => {
  const res = await request(s.t.app)
    .get(`/api/projects/${projectId}/favourites/${visitorId}`)
    .set(s.staff.auth)
    .expect(200);
  return res.body as FavouriteSelection;
};
const photoIds = async () =>
  (await s.t.ctx.db("attachments").where({ project_id: s.delivery.id }).orderBy(["created_at", "id"])).map((a) =>
    Number(a.id),
  );

describe("the studio's favourites", () => {
  it("lists each visitor with their count and state, and each one's picks in the delivery's order with comments", async () => {
    s = await fixture.studio();
    const ana = visitorOf(s.t, s.delivery.token, "198.51.100.1");
    const luis = visitorOf(s.t, s.delivery.token, "198.51.100.2");
    await ana.join("Ana Lima", "ana@lima.test");
    await luis.join("Luís Lima", "luis@lima.test");
    await ana.mark(3, "Black and white?");
    await ana.mark(1);
    await ana.submit().expect(200);
    await luis.mark(2);

    const [latest, first] = await lists();
    expect(latest).toMatchObject({ name: "Luís Lima", email: "luis@lima.test", count: 1, comments: 0, sent: false });
    expect(latest.submittedAt).toBeNull();
    expect(first).toMatchObject({ name: "Ana Lima", email: "ana@lima.test", count: 2, comments: 1, sent: true });
    expect(Date.parse(first.submittedAt!)).toBeGreaterThan(Date.now() - 60_000);

    const ids = await photoIds();
    const picks = await selection(first.id);
    expect(
      picks.picks.map(({ attachmentId, originalName, comment }) => ({ attachmentId, originalName, comment })),
    ).toEqual([
      { attachmentId: ids[0], originalName: "one.jpg", comment: null },
      { attachmentId: ids[2], originalName: "three.jpg", comment: "Black and white?" },
    ]);
    const thumb = await request(s.t.app).get(picks.picks[0].thumbnailUrl);
    expect(thumb.status).toBe(200);
    expect(thumb.headers["content-type"]).toMatch(/^image\//);
  });

  it("mails the project's staff 'Selection from {name} for {project}' with the names, comments and Lightroom's filter", async () => {
    s = await fixture.studio();
    const boss = await createUser(s.t.ctx, { role: "admin", email: "boss@lumen.test" });
    const v = visitorOf(s.t, s.delivery.token, "198.51.100.3");
    await v.join("Ana Lima", "ana@lima.test");
    await v.mark(1, "Our favourite");
    await v.mark(3);
    await v.submit().expect(200);
    await recordingsSettled(s.t.ctx);
    // Nobody sent this gallery: the admins hear.
    expect(fixture.mails.map((m) => m.to)).toEqual([[boss.email]]);
    fixture.mails.length = 0;

    // Whoever sent the gallery hears; replies go to the visitor.
    await request(s.t.app)
      .post(`/api/projects/${s.delivery.id}/sending`)
      .set(s.staff.auth)
      .send({ contactIds: [s.ana], emails: [], subject: "Photos", message: "Here they are" })
      .expect(200);
    fixture.mails.length = 0;
    await v.mark(2);
    await v.submit().expect(200);
    await recordingsSettled(s.t.ctx);
    expect(fixture.mails).toHaveLength(1);
    const [mail] = fixture.mails;
    expect(mail.to).toEqual(["ann@lumen.test"]);
    const parts = mailParts(mail.raw);
    expect(parts.header("Subject")).toEqual(["Selection from Ana Lima for Lima Wedding"]);
    expect(parts.header("Reply-To")).toEqual(["ana@lima.test"]);
    expect(parts.text).toContain("Ana Lima <ana@lima.test> sent a selection of 3 photos from Lima Wedding.");
    expect(parts.text).toContain("one.jpg: Our favourite\ntwo.jpg\nthree.jpg\n");
    expect(parts.text).toContain("one OR two OR three");
    expect(parts.text).toContain(`${PUBLIC_URL}/projects/${s.delivery.id}`);
  });

  it("announces every change of a list as a change of the project's favourites", async () => {
    s = await fixture.studio();
    const seen: ResourceChange[] = [];
    s.t.ctx.events.onResourceChanged((c) => c.resource === "favourites" && seen.push(c));
    const v = visitorOf(s.t, s.delivery.token, "198.51.100.4");
    await v.join();
    await v.mark(1);
    await v.mark(1, "Crop");
    await v.mark(1, "Crop");
    await v.unmark(1);
    await v.mark(2);
    await v.submit();
    const change = { resource: "favourites", type: "updated", ids: [s.delivery.id] };
    // Marking again with the same comment changes nothing, and says nothing.
    expect(seen).toEqual([change, change, change, change, change, change]);
  });

  it("keeps the lists when the project is unpublished, drops a deleted photo from every list, and deletes them with the project", async () => {
    s = await fixture.studio();
    const ana = visitorOf(s.t, s.delivery.token, "198.51.100.5");
    const luis = visitorOf(s.t, s.delivery.token, "198.51.100.6");
    await ana.join("Ana", "ana@lima.test");
    await luis.join("Luís", "luis@lima.test");
    await ana.mark(1);
    await ana.mark(2, "This one");
    await luis.mark(2);
    await luis.mark(3);

    await request(s.t.app).delete(`/api/projects/${s.delivery.id}/publish`).set(s.staff.auth).expect(200);
    expect((await lists()).map((l) => l.count)).toEqual([2, 2]);
    const [, second] = await photoIds();
    await request(s.t.app).delete(`/api/attachments/${second}`).set(s.staff.auth).expect(204);
    const after = await lists();
    expect(after.map((l) => [l.name, l.count, l.comments])).toEqual([
      ["Luís", 1, 0],
      ["Ana", 1, 0],
    ]);
    expect(await s.t.ctx.db("favourites").where({ attachment_id: second })).toEqual([]);

    await request(s.t.app).delete(`/api/projects/${s.delivery.id}`).set(s.staff.auth).expect(204);
    expect(await s.t.ctx.db("favourite_visitors")).toEqual([]);
    expect(await s.t.ctx.db("favourites")).toEqual([]);
  });

  it("answers 404 for an unknown project or a visitor of another project, and only to approved staff", async () => {
    s = await fixture.studio();
    const v = visitorOf(s.t, s.delivery.token, "198.51.100.7");
    await v.join();
    await v.mark(1);
    const [visitor] = await lists();
    expect(positions(await v.list())).toEqual([1]);
    const other = await request(s.t.app).post("/api/projects").set(s.staff.auth).send({ name: "Other" }).expect(201);
    await request(s.t.app).get(`/api/projects/${other.body.id}/favourites/${visitor.id}`).set(s.staff.auth).expect(404);
    expect(await lists(other.body.id)).toEqual([]);
    const missing = await request(s.t.app).get("/api/projects/999999/favourites").set(s.staff.auth);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe("Project not found");
    await request(s.t.app).get(`/api/projects/${s.delivery.id}/favourites/abc`).set(s.staff.auth).expect(400);
    const waiting = await createUser(s.t.ctx, { hasAccess: false });
    await request(s.t.app).get(`/api/projects/${s.delivery.id}/favourites`).set(waiting.auth).expect(403);
    await request(s.t.app).get(`/api/projects/${s.delivery.id}/favourites`).expect(401);
  });
});
