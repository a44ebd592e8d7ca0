import { describe, expect, it } from "vitest";
import { mailParts } from "../test/mail-parts";
import { readStudioRow } from "../studio/studio.repository";
import { storesOf } from "../storage/stores";
import { sendDueReminders } from "../reminders/reminders.service";
import { brandStudio, sendMail, setDelivery, studioFixture, type Studio } from "./test-fixtures";

const fixture = studioFixture();

/** Nordlicht's branding: a dark-yellow accent (black text reads better on it), a logo, contacts, Berlin time. */
async function brand(s: Studio) {
  await brandStudio(
    s.t.ctx,
    {
      name: "Nordlicht Fotografie",
      accentColor: "#ffd43b",
      contactEmail: "hallo@nordlicht.example",
      contactPhone: "+49 30 1234567",
      contactWebsite: "https://nordlicht.example",
      timeZone: "Europe/Berlin",
    },
    { width: 300, height: 100 },
  );
  // The first photo's preview, as the renditions job would have made it.
  const first = await s.t.ctx.db("attachments").where({ project_id: s.delivery.id }).orderBy("id").first();
  await s.t.ctx.db("attachments").where({ id: first.id }).update({ preview_key: first.storage_key });
  s.t.ctx.events.resourceChanged({ resource: "studio", type: "updated", ids: ["settings"] });
}

/** The inline images a raw message carries, by Content-ID. */
const contentIds = (raw: string) => [...raw.matchAll(/^Content-ID: <([^>]+)>/gim)].map((m) => m[1]).sort();

function expectBranded(raw: string) {
  const mail = mailParts(raw);
  // The button in the accent, its text black (it contrasts more on #ffd43b than white).
  expect(mail.html).toMatch(/class="button" style="[^"]*background:#ffd43b;color:#000000/);
  expect(mail.html).toContain('src="cid:studio-logo"');
  expect(mail.html).toContain('alt="Nordlicht Fotografie"');
  expect(mail.html).toContain('src="cid:gallery-cover"');
  expect(contentIds(raw)).toEqual(["gallery-cover", "studio-logo"]);
  for (const part of [mail.text, mail.html]) {
    expect(part).toContain("hallo@nordlicht.example");
    expect(part).toContain("+49 30 1234567");
    expect(part).toContain("https://nordlicht.example");
    expect(part).not.toContain("Photo Delivery, Fast");
  }
  expect(mail.html).toContain('href="mailto:hallo@nordlicht.example"');
  // On a 320 px phone: a card that shrinks, and the long link broken anywhere.
  expect(mail.html).toContain("max-width:600px");
  expect(mail.html).toMatch(/class="link" style="[^"]*word-break:break-all/);
  return mail;
}

describe("a client's mail in the studio's brand", () => {
  it("carries the accent, the logo and cover inline, the contact line and the expiry in the studio's time zone", async () => {
    const s = await fixture.studio();
    await brand(s);
    await setDelivery(s, { expiresAt: "2099-03-14T18:30:00.000Z" });
    await sendMail(s.t, s.staff, s.delivery.id, { contactIds: [s.ana] }).expect(200);
    expect(fixture.mails).toHaveLength(1);
    const mail = expectBranded(fixture.mails[0].raw);
    for (const part of [mail.text, mail.html])
      expect(part).toContain("Available until Saturday 14 March 2099, 19:30 CET.");
    expect(mail.header("From")[0]).toMatch(/^"?Nordlicht Fotografie"? </);
  });

  it("gives a reminder the same look and the day and time in the studio's zone", async () => {
    const s = await fixture.studio();
    await brand(s);
    // 23:30 UTC on the 14th is already the 15th in Berlin.
    const expiresAt = new Date(Date.now() + 2 * 86_400_000);
    expiresAt.setUTCHours(23, 30, 0, 0);
    await setDelivery(s, { expiresAt: expiresAt.toISOString() });
    await sendMail(s.t, s.staff, s.delivery.id, { contactIds: [s.ana] }).expect(200);
    fixture.mails.length = 0;
    // The logo was converted for the first mail and kept: the reminder does not read it again.
    const { logoKey } = await readStudioRow(s.t.ctx.db);
    await storesOf(s.t.ctx.config).uploads.remove(logoKey!);
    // Sent two days ago: with the default 3 days, the reminder is due.
    await s.t.ctx
      .db("delivery_recipients")
      .where({ project_id: s.delivery.id })
      .update({ sent_at: new Date(Date.now() - 2 * 86_400_000).toISOString() });
    expect(await sendDueReminders(s.t.ctx)).toBe(1);
    const mail = expectBranded(fixture.mails[0].raw);
    const berlin = new Date(expiresAt.getTime() + 3_600_000 * (isSummerInBerlin(expiresAt) ? 2 : 1));
    const day = berlin.toLocaleDateString("en-GB", { timeZone: "UTC", day: "numeric", month: "long", year: "numeric" });
    expect(mail.header("Subject")[0]).toContain(`available until ${day}`);
    expect(mail.text).toMatch(/until \w+day \d+ \w+ \d{4}, 0[01]:30 CES?T\./);
  });
});

function isSummerInBerlin(at: Date): boolean {
  return new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Berlin", timeZoneName: "short" })
    .format(at)
    .endsWith("CEST");
}
