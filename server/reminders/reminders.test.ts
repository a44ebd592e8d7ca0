import request from "supertest";
import { describe, expect, it } from "vitest";
import { mailParts } from "../test/mail-parts";
import { cookiesOf, downloadZip } from "../delivery/test-fixtures";
import {
  activityOf,
  linkIn,
  sendMail,
  setDelivery,
  expireLink,
  studioFixture,
  unsubscribePathIn,
  type Studio,
} from "../sending/test-fixtures";
import { recordExpiredLinks, sendDueReminders } from "./reminders.service";

const fixture = studioFixture();
let s: Studio;

const DAY = 24 * 3600 * 1000;
const mailsTo = (email: string) => fixture.mails.filter((m) => m.to.includes(email));

const setExpiry = (expiresAt: string) => setDelivery(s, { expiresAt });
const setDays = (days: number | null) =>
  request(s.t.app).put(`/api/projects/${s.delivery.id}/reminders`).set(s.staff.auth).send({ days });

/** The mails of this project went out `days` days ago (the tests cannot wait a day). */
const sentDaysAgo = (days: number) =>
  s.t.ctx
    .db("delivery_recipients")
    .where({ project_id: s.delivery.id })
    .update({ sent_at: new Date(Date.now() - days * DAY).toISOString() });

/** Ana and Luís got the link two days ago; it expires in two days, so with the default 3 days a reminder is due. */
async function dueForAnaAndLuis() {
  await sendMail(s.t, s.staff, s.delivery.id, { contactIds: [s.ana, s.luis] }).expect(200);
  await setExpiry(new Date(Date.now() + 2 * DAY).toISOString());
  await sentDaysAgo(2);
  const mails = { ana: mailsTo("ana@lima.test")[0], luis: mailsTo("luis@lima.test")[0] };
  fixture.mails.length = 0;
  return mails;
}

describe("reminders", () => {
  it("remind 3 days before the link expires by default; can be set from 1 to 30 days, or off", async () => {
    s = await fixture.studio();
    const url = `/api/projects/${s.delivery.id}/reminders`;
    expect((await request(s.t.app).get(url).set(s.staff.auth)).body).toEqual({ days: 3 });
    expect((await setDays(7)).body).toEqual({ days: 7 });
    expect((await request(s.t.app).get(url).set(s.staff.auth)).body).toEqual({ days: 7 });
    expect((await setDays(null)).body).toEqual({ days: null });
    for (const days of [0, 31, 2.5, "3"]) {
      const res = await request(s.t.app).put(url).set(s.staff.auth).send({ days });
      expect(res.status).toBe(400);
    }
    expect((await request(s.t.app).get(url).set(s.staff.auth)).body).toEqual({ days: null });
    expect((await request(s.t.app).get("/api/projects/999999/reminders").set(s.staff.auth)).status).toBe(404);
  });

  it("reminds, once, each recipient who has not downloaded, with their own link", async () => {
    s = await fixture.studio();
    const first = await dueForAnaAndLuis();
    // Luís downloaded everything through the link in his mail.
    const luis = cookiesOf(await request(s.t.app).get(linkIn(first.luis)));
    await downloadZip(s.t, s.delivery, luis);
    expect(fixture.mails.map((m) => m.to)).toEqual([["ann@lumen.test"]]); // 'Lima Family downloaded Lima Wedding'
    fixture.mails.length = 0;

    // Two looks at the same moment (as two processes would) send one reminder.
    const sent = await Promise.all([sendDueReminders(s.t.ctx), sendDueReminders(s.t.ctx)]);
    expect(sent[0] + sent[1]).toBe(1);
    expect(fixture.mails.map((m) => m.to)).toEqual([["ana@lima.test"]]);
    const reminder = mailParts(fixture.mails[0].raw);
    expect(reminder.header("Subject")[0]).toMatch(
      /^Reminder: your photos of Lima Wedding are available until \d+ \w+ \d{4}$/,
    );
    expect(reminder.text).toContain("After that the link stops working.");
    expect(linkIn(fixture.mails[0])).toBe(linkIn(first.ana));
    expect(reminder.header("List-Unsubscribe-Post")).toEqual(["List-Unsubscribe=One-Click"]);
    expect(unsubscribePathIn(fixture.mails[0])).toBe(unsubscribePathIn(first.ana));

    expect(await sendDueReminders(s.t.ctx)).toBe(0);
    expect(fixture.mails).toHaveLength(1);
    const [latest] = await activityOf(s.t, s.staff, s.delivery.id);
    expect(latest).toMatchObject({ type: "reminder", recipients: ["Ana Lima <ana@lima.test>"], by: null });
  });

  it("reminds nobody too early, with reminders off, within a day of the mail, or on a link since regenerated", async () => {
    s = await fixture.studio();
    await dueForAnaAndLuis();
    await setExpiry(new Date(Date.now() + 5 * DAY).toISOString());
    expect(await sendDueReminders(s.t.ctx)).toBe(0);
    await setExpiry(new Date(Date.now() + 2 * DAY).toISOString());
    await setDays(null);
    expect(await sendDueReminders(s.t.ctx)).toBe(0);
    await setDays(3);
    await sentDaysAgo(0.5);
    expect(await sendDueReminders(s.t.ctx)).toBe(0);
    await sentDaysAgo(2);
    await request(s.t.app).post(`/api/projects/${s.delivery.id}/delivery/regenerate`).set(s.staff.auth).expect(200);
    expect(await sendDueReminders(s.t.ctx)).toBe(0);
    expect(fixture.mails).toEqual([]);
  });

  it("reminds an address mailed twice once, for its later mail and a day after it", async () => {
    s = await fixture.studio();
    await dueForAnaAndLuis();
    await sendMail(s.t, s.staff, s.delivery.id, { emails: ["ANA@lima.test"] }).expect(200);
    const later = fixture.mails[0];
    fixture.mails.length = 0;
    expect(await sendDueReminders(s.t.ctx)).toBe(1);
    expect(fixture.mails.map((m) => m.to)).toEqual([["luis@lima.test"]]);
    await sentDaysAgo(2);
    expect(await sendDueReminders(s.t.ctx)).toBe(1);
    expect(await sendDueReminders(s.t.ctx)).toBe(0);
    const toAna = mailsTo("ANA@lima.test");
    expect(toAna).toHaveLength(1);
    expect(linkIn(toAna[0])).toBe(linkIn(later));
  });

  it("skips an address that unsubscribed after its mail", async () => {
    s = await fixture.studio();
    const first = await dueForAnaAndLuis();
    await request(s.t.app).post(unsubscribePathIn(first.ana)).expect(200);
    expect(await sendDueReminders(s.t.ctx)).toBe(1);
    expect(fixture.mails.map((m) => m.to)).toEqual([["luis@lima.test"]]);
  });
});

describe("expired links", () => {
  it("records an expiry once and mails the sender when the link expired unused", async () => {
    s = await fixture.studio();
    await sendMail(s.t, s.staff, s.delivery.id, { emails: ["friend@else.test"] }).expect(200);
    await expireLink(s, 60_000);
    fixture.mails.length = 0;
    const counts = await Promise.all([recordExpiredLinks(s.t.ctx), recordExpiredLinks(s.t.ctx)]);
    expect(counts[0] + counts[1]).toBe(1);
    expect(await recordExpiredLinks(s.t.ctx)).toBe(0);
    expect(fixture.mails.map((m) => m.to)).toEqual([["ann@lumen.test"]]);
    expect(mailParts(fixture.mails[0].raw).header("Subject")).toEqual(["The link to Lima Wedding expired unused"]);
    const [expired] = await activityOf(s.t, s.staff, s.delivery.id);
    expect(expired).toMatchObject({ type: "expired", unused: true });
  });

  it("records a link that was downloaded without a mail, and a new expiry again when it passes", async () => {
    s = await fixture.studio();
    await downloadZip(s.t, s.delivery);
    await expireLink(s, 60_000);
    fixture.mails.length = 0;
    expect(await recordExpiredLinks(s.t.ctx)).toBe(1);
    await expireLink(s, 30_000);
    expect(await recordExpiredLinks(s.t.ctx)).toBe(1);
    expect(fixture.mails).toEqual([]);
    const expiries = (await activityOf(s.t, s.staff, s.delivery.id)).filter((a) => a.type === "expired");
    expect(expiries.map((a) => a.unused)).toEqual([false, false]);
  });
});
