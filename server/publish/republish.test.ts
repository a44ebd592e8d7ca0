import request from "supertest";
import { describe, expect, it } from "vitest";
import { mailParts } from "../test/mail-parts";
import { cookiesOf, downloadZip, locate } from "../delivery/test-fixtures";
import { insertProjectRow, markPublishedRow } from "../test/rows";
import { until } from "../test/wait";
import { publishedKeys, publishedZipCopy } from "../test/stored-files";
import { linkIn, sendMail, setDelivery, studioFixture, type Studio } from "../sending/test-fixtures";
import { addPhoto, projectRow, readZip, recordPublishEvents } from "./test-fixtures";
import { publishQueue } from "./publish-job";
import { mailsSettled } from "../mail/mailer";

const fixture = studioFixture();
const BEING_UPDATED = "This gallery is being updated — please check back soon";

const unpublish = (s: Studio) =>
  request(s.t.app).delete(`/api/projects/${s.delivery.id}/publish`).set(s.staff.auth).expect(200);

async function publish(s: Studio, body?: object, id = s.delivery.id) {
  const events = recordPublishEvents(s.t.ctx, id);
  const req = request(s.t.app).post(`/api/projects/${id}/publish`).set(s.staff.auth);
  expect((await (body ? req.send(body) : req)).status).toBe(202);
  await events.next("publish_completed");
  events.stop();
}

/** The builds are done, and with them the mails they sent: nothing more can arrive. */
async function settled(s: Studio) {
  await publishQueue(s.t.ctx).idle();
  await mailsSettled(s.t.ctx);
}

/** Every file behind the link: none is served while the project is not published. */
const filesOf = (token: string) => [
  `/published/${token}.zip`,
  `/d/${token}/all.zip`,
  `/d/${token}/web.zip`,
  `/d/${token}/t/1`,
  `/d/${token}/v/1`,
  `/d/${token}/p/1`,
  `/d/${token}/p/1/download`,
];

describe("unpublishing and publishing again keep the delivery link", () => {
  it("shows the being-updated page and no file while unpublished, then serves the new ZIP under the same link", async () => {
    const s = await fixture.studio();
    const { token, page } = s.delivery;
    await unpublish(s);

    const res = await request(s.t.app).get(page);
    expect(res.status).toBe(503);
    expect(res.headers["retry-after"]).toBe("600");
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.text).toContain(BEING_UPDATED);
    expect(res.text).toContain("Lumen Studio");
    expect(res.text).toContain("This link stays the same.");
    expect(res.text).not.toContain("does not exist");
    const part = await request(s.t.app).get(`${page}/photos?from=1`);
    expect(part.status).toBe(503);
    expect(part.body).toEqual({ statusCode: 503, message: BEING_UPDATED });
    expect((await request(s.t.app).post(`${page}/unlock`).type("form").send({ passcode: "x" })).status).toBe(503);
    for (const file of filesOf(token)) {
      const answer = await request(s.t.app).get(file);
      expect([file, answer.status, answer.body]).toEqual([file, 503, { statusCode: 503, message: BEING_UPDATED }]);
    }
    // The ZIP link opened in a browser: the studio's page, as the gallery's.
    const zipPage = await request(s.t.app).get(`/d/${token}/all.zip`).set("Accept", "text/html");
    expect([zipPage.status, zipPage.headers["retry-after"]]).toEqual([503, "600"]);
    expect(zipPage.text).toContain(BEING_UPDATED);
    expect(zipPage.text).toContain("Lumen Studio");
    // The favourites' calls say it too.
    const joined = await request(s.t.app)
      .post(`${page}/favourites/visitor`)
      .send({ name: "Ana", email: "ana@lima.test" });
    expect([joined.status, joined.body.message]).toEqual([503, BEING_UPDATED]);
    expect(await publishedKeys(s.t.ctx)).toEqual([]);
    // An unknown link still says so.
    const unknown = await request(s.t.app).get(`/d/${"x".repeat(22)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain("This delivery link does not exist");

    await addPhoto(s.t.ctx, s.delivery.id, "four.jpg");
    await publish(s);

    expect((await locate(s.t, s.delivery.id)).token).toBe(token);
    const gallery = await request(s.t.app).get(page);
    expect(gallery.status).toBe(200);
    expect(gallery.text).toContain('alt="four.jpg"');
    const zip = await readZip(await publishedZipCopy(s.t.ctx, `${token}.zip`));
    expect(zip.map((e) => e.name)).toEqual(["one.jpg", "two.jpg", "three.jpg", "four.jpg"]);
    await downloadZip(s.t, s.delivery);
    // Only the link's ZIP is left: the build's own name was moved onto it.
    expect(await publishedKeys(s.t.ctx)).toEqual([`${token}.zip`]);
  });

  it("keeps the link through a failed publish and a unpublish from there", async () => {
    const s = await fixture.studio();
    await unpublish(s);
    await s.t.ctx.db("projects").where({ id: s.delivery.id }).update({ publish_status: "failed", publish_error: "x" });
    expect((await request(s.t.app).get(s.delivery.page)).status).toBe(503);
    await unpublish(s);
    await publish(s);
    expect((await request(s.t.app).get(s.delivery.page)).status).toBe(200);
  });

  it("'Regenerate link' still ends the old link, and the new one survives a republish", async () => {
    const s = await fixture.studio();
    await unpublish(s);
    await publish(s);
    await request(s.t.app).post(`/api/projects/${s.delivery.id}/delivery/regenerate`).set(s.staff.auth).expect(200);
    const renewed = await locate(s.t, s.delivery.id);
    expect(renewed.token).not.toBe(s.delivery.token);
    const old = await request(s.t.app).get(s.delivery.page);
    expect(old.status).toBe(404);
    expect(old.text).toContain("This delivery link does not exist");

    await unpublish(s);
    expect((await request(s.t.app).get(s.delivery.page)).status).toBe(404);
    expect((await request(s.t.app).get(renewed.page)).status).toBe(503);
    await publish(s);
    expect((await request(s.t.app).get(renewed.page)).status).toBe(200);
  });

  it("a recipient's link and a passcode's cookie work again after the republish", async () => {
    const s = await fixture.studio();
    await setDelivery(s, { passcode: "lima-2026" });
    await sendMail(s.t, s.staff, s.delivery.id, { contactIds: [s.ana] }).expect(200);
    const link = linkIn(fixture.mails[0]);
    const unlocked = await request(s.t.app)
      .post(`${s.delivery.page}/unlock`)
      .type("form")
      .send({ passcode: "lima-2026" })
      .expect(303);
    const passcodeCookie = cookiesOf(unlocked);

    await unpublish(s);
    const whileUpdating = await request(s.t.app).get(link);
    expect(whileUpdating.status).toBe(302);
    expect(whileUpdating.headers["set-cookie"]).toBeUndefined();
    await publish(s);

    const opened = await request(s.t.app).get(link);
    expect(opened.status).toBe(302);
    expect(opened.headers.location).toBe(s.delivery.page);
    expect(cookiesOf(opened)).toMatch(/=/);
    const gallery = await request(s.t.app).get(s.delivery.page).set("Cookie", passcodeCookie);
    expect(gallery.status).toBe(200);
    expect(gallery.text).not.toContain("Enter the passcode");
    // The download is put down to Ana, whose mail it came from.
    await downloadZip(s.t, s.delivery, `${passcodeCookie}; ${cookiesOf(opened)}`);
    const ana = await s.t.ctx.db("delivery_recipients").where({ email: "ana@lima.test" }).first("downloaded_at");
    expect(ana.downloaded_at).not.toBeNull();
  });
});

describe('POST /api/projects/:id/publish { "notifyRecipients": true }', () => {
  it("mails each address that has the link, once, with its own link, when the publish has finished", async () => {
    const s = await fixture.studio();
    await sendMail(s.t, s.staff, s.delivery.id, { contactIds: [s.ana, s.luis] }).expect(200);
    await sendMail(s.t, s.staff, s.delivery.id, { contactIds: [s.ana] }).expect(200);
    const anaLatest = linkIn(fixture.mails.filter((m) => m.to.includes("ana@lima.test"))[1]);
    const luisLink = linkIn(fixture.mails.find((m) => m.to.includes("luis@lima.test"))!);
    fixture.mails.length = 0;

    await unpublish(s);
    await addPhoto(s.t.ctx, s.delivery.id, "four.jpg");
    await publish(s, { notifyRecipients: true });

    const mails = await until(
      () => fixture.mails,
      (all) => all.length >= 2,
    );
    expect(mails.map((m) => m.to).sort()).toEqual([["ana@lima.test"], ["luis@lima.test"]]);
    for (const [mail, link] of [
      [mails.find((m) => m.to.includes("ana@lima.test"))!, anaLatest],
      [mails.find((m) => m.to.includes("luis@lima.test"))!, luisLink],
    ] as const) {
      const parts = mailParts(mail.raw);
      expect(parts.header("Subject")).toEqual(["Updated: your photos of Lima Wedding"]);
      expect(parts.text).toContain("Lumen Studio has updated your gallery Lima Wedding.");
      expect(parts.text).toContain("4 photos, ");
      expect(linkIn(mail)).toBe(link);
      expect((await request(s.t.app).get(link)).headers.location).toBe(s.delivery.page);
    }
    // Nothing more arrives.
    await settled(s);
    expect(fixture.mails).toHaveLength(2);
  });

  it("sends nothing by default, nor to an unsubscribed address, nor for a link regenerated since", async () => {
    const s = await fixture.studio();
    await sendMail(s.t, s.staff, s.delivery.id, { contactIds: [s.ana, s.luis] }).expect(200);
    const luisMail = fixture.mails.find((m) => m.to.includes("luis@lima.test"))!;
    const unsubscribe = /(\/unsubscribe\/[A-Za-z0-9_-]+)/.exec(mailParts(luisMail.raw).header("List-Unsubscribe")[0]);
    await request(s.t.app)
      .post(unsubscribe![1])
      .expect((r) => expect(r.status).toBeLessThan(400));
    fixture.mails.length = 0;
    // The web app offers to notify them when the draft counts anyone holding the link.
    const linkHolders = async () =>
      (await request(s.t.app).get(`/api/projects/${s.delivery.id}/sending`).set(s.staff.auth)).body.linkHolders;
    expect(await linkHolders()).toBe(2);

    await unpublish(s);
    expect(await linkHolders()).toBe(2);
    await publish(s);
    await unpublish(s);
    await publish(s, { notifyRecipients: false });
    await settled(s);
    expect(fixture.mails).toEqual([]);

    await unpublish(s);
    await publish(s, { notifyRecipients: true });
    await until(
      () => fixture.mails,
      (all) => all.length >= 1,
    );
    await settled(s);
    expect(fixture.mails.map((m) => m.to)).toEqual([["ana@lima.test"]]);
    fixture.mails.length = 0;

    await request(s.t.app).post(`/api/projects/${s.delivery.id}/delivery/regenerate`).set(s.staff.auth).expect(200);
    expect(await linkHolders()).toBe(0);
    await unpublish(s);
    await publish(s, { notifyRecipients: true });
    await settled(s);
    expect(fixture.mails).toEqual([]);
  });

  it("refuses an option that is not a boolean, or one it does not know, with a 400", async () => {
    const s = await fixture.studio();
    await unpublish(s);
    for (const body of [{ notifyRecipients: "yes" }, { notify: true }]) {
      const res = await request(s.t.app).post(`/api/projects/${s.delivery.id}/publish`).set(s.staff.auth).send(body);
      expect(res.status).toBe(400);
      expect(res.body.statusCode).toBe(400);
    }
    expect((await projectRow(s.t.ctx, s.delivery.id)).publish_status).toBe("draft");
  });
});

describe("projects as the previous release left them", () => {
  it("a published one keeps its link across unpublish and publish; one it had unpublished gets a link at its next publish", async () => {
    const s = await fixture.studio();
    // The previous release: a published row names its ZIP; unpublishing cleared the name.
    const published = await insertProjectRow(s.t.ctx, { name: "Older" });
    await addPhoto(s.t.ctx, published, "old.jpg");
    const token = await markPublishedRow(s.t.ctx, published);
    const unpublished = await insertProjectRow(s.t.ctx, { name: "Unpublished before" });
    await addPhoto(s.t.ctx, unpublished, "draft.jpg");

    await request(s.t.app).delete(`/api/projects/${published}/publish`).set(s.staff.auth).expect(200);
    expect((await request(s.t.app).get(`/d/${token}`)).status).toBe(503);
    await publish(s, undefined, published);
    expect((await locate(s.t, published)).token).toBe(token);
    expect((await request(s.t.app).get(`/d/${token}`)).status).toBe(200);

    await publish(s, undefined, unpublished);
    const fresh = await locate(s.t, unpublished);
    expect(fresh.token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect((await request(s.t.app).get(fresh.page)).status).toBe(200);
  });
});
