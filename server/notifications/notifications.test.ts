import request from "supertest";
import { describe, expect, it } from "vitest";
import { mailParts } from "../test/mail-parts";
import { createUser, type TestUser } from "../test/harness";
import { until } from "../test/wait";
import { downloadZip } from "../delivery/test-fixtures";
import { PUBLIC_URL, sendMail, studioFixture, type Studio } from "../sending/test-fixtures";

const fixture = studioFixture();
let s: Studio;

const mailsTo = (email: string) => fixture.mails.filter((m) => m.to.includes(email));

/** A full download of the ZIP by someone with no mail's cookie, and its recording done. */
const downloadAll = () => downloadZip(s.t, s.delivery);

const turnOff = (user: TestUser) =>
  request(s.t.app).put("/api/users/me/notifications").set(user.auth).send({ deliveryMail: false }).expect(200);

describe("notifications to staff", () => {
  it("mails the sender once on the first full download: '{client} downloaded {project}'", async () => {
    s = await fixture.studio();
    const admin = await createUser(s.t.ctx, { role: "admin", email: "boss@lumen.test" });
    await sendMail(s.t, s.staff, s.delivery.id, { emails: ["friend@else.test"] }).expect(200);
    await downloadAll();
    await downloadAll();

    const mails = mailsTo("ann@lumen.test");
    expect(mails).toHaveLength(1);
    const mail = mailParts(mails[0].raw);
    expect(mail.header("Subject")).toEqual(["Lima Family downloaded Lima Wedding"]);
    expect(mail.text).toContain("Lima Family downloaded all the photos of Lima Wedding (the ZIP of 3 photos, ");
    expect(mail.text).toContain(`${PUBLIC_URL}/projects/${s.delivery.id}`);
    expect(mailsTo(admin.email)).toEqual([]);
    expect(mailsTo("friend@else.test")).toHaveLength(1);
  });

  it("mails every admin when nobody sent it, except whoever turned these mails off for themselves", async () => {
    s = await fixture.studio();
    const boss = await createUser(s.t.ctx, { role: "admin", email: "boss@lumen.test" });
    const quiet = await createUser(s.t.ctx, { role: "admin", email: "quiet@lumen.test" });
    await createUser(s.t.ctx, { role: "admin", hasAccess: false, email: "former@lumen.test" });
    await turnOff(quiet);
    await downloadAll();
    expect(fixture.mails.map((m) => m.to)).toEqual([[boss.email]]);
  });

  it("lets a sender turn them off, and keeps each staff member's choice their own", async () => {
    s = await fixture.studio();
    const other = await createUser(s.t.ctx, { email: "other@lumen.test" });
    const read = (user: TestUser) => request(s.t.app).get("/api/users/me/notifications").set(user.auth);
    expect((await read(s.staff)).body).toEqual({ deliveryMail: true });
    await turnOff(s.staff);
    expect((await read(s.staff)).body).toEqual({ deliveryMail: false });
    expect((await read(other)).body).toEqual({ deliveryMail: true });
    const bad = await request(s.t.app)
      .put("/api/users/me/notifications")
      .set(s.staff.auth)
      .send({ deliveryMail: "no" });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ deliveryMail: "deliveryMail must be true or false" });
    const waiting = await createUser(s.t.ctx, { hasAccess: false });
    expect((await read(waiting)).status).toBe(403);

    await sendMail(s.t, s.staff, s.delivery.id, { emails: ["friend@else.test"] }).expect(200);
    await downloadAll();
    await until(
      () => s.t.ctx.db("delivery_notices").where({ project_id: s.delivery.id }),
      (rows) => rows.length === 1,
    );
    expect(mailsTo("ann@lumen.test")).toEqual([]);
  });
});
