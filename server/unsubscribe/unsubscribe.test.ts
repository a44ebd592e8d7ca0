import request from "supertest";
import { describe, expect, it } from "vitest";
import type { SendingDraft } from "../../api/types";
import { brandStudio, sendMail, studioFixture, unsubscribePathIn, type Studio } from "../sending/test-fixtures";

const fixture = studioFixture();
let s: Studio;

async function draft(): Promise<SendingDraft> {
  return (await request(s.t.app).get(`/api/projects/${s.delivery.id}/sending`).set(s.staff.auth)).body as SendingDraft;
}

const anaIsUnsubscribed = async () => (await draft()).contacts.find((c) => c.id === s.ana)?.unsubscribed;

describe("unsubscribe", () => {
  it("takes a mail program's one-click POST (RFC 8058) with no sign-in, and skips the address from then on", async () => {
    s = await fixture.studio();
    await sendMail(s.t, s.staff, s.delivery.id, { contactIds: [s.ana] }).expect(200);
    const path = unsubscribePathIn(fixture.mails[0]);

    const res = await request(s.t.app).post(path).type("form").send("List-Unsubscribe=One-Click");
    expect(res.status).toBe(200);
    expect(res.text).toContain("You&#39;re unsubscribed");
    expect(res.text).toContain("Lumen Studio will send no more e-mails to ana@lima.test.");
    expect(await anaIsUnsubscribed()).toBe(true);
    // A second click is harmless.
    expect((await request(s.t.app).post(path).type("form").send("List-Unsubscribe=One-Click")).status).toBe(200);

    fixture.mails.length = 0;
    const again = await sendMail(s.t, s.staff, s.delivery.id, {
      contactIds: [s.ana, s.luis],
      emails: ["ANA@Lima.test"],
    });
    expect(again.body).toEqual({
      sent: ["luis@lima.test"],
      failed: [],
      skipped: [{ email: "ana@lima.test", reason: "Unsubscribed: this address asked for no more e-mails" }],
    });
    expect(fixture.mails.map((m) => m.to)).toEqual([["luis@lima.test"]]);
  });

  it("opens a page with a button from the link in the mail, and only the button unsubscribes", async () => {
    s = await fixture.studio();
    await sendMail(s.t, s.staff, s.delivery.id, { contactIds: [s.ana] }).expect(200);
    const path = unsubscribePathIn(fixture.mails[0]);
    const page = await request(s.t.app).get(path);
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    expect(page.text).toContain("Stop e-mails from Lumen Studio to ana@lima.test?");
    expect(page.text).toContain('<form method="post"><button class="button" type="submit">Unsubscribe</button></form>');
    expect(await anaIsUnsubscribed()).toBe(false);

    expect((await request(s.t.app).post(path)).status).toBe(200);
    expect(await anaIsUnsubscribed()).toBe(true);
  });

  it("is branded (logo, name, accent, contact line) and, to an address already out, says so without a second button", async () => {
    s = await fixture.studio();
    await brandStudio(
      s.t.ctx,
      {
        name: "Nordlicht",
        accentColor: "#ffd43b",
        contactEmail: "hallo@nordlicht.example",
        contactPhone: "+49 30 1234",
      },
      { width: 90, height: 30 },
    );
    await sendMail(s.t, s.staff, s.delivery.id, { contactIds: [s.ana] }).expect(200);
    const path = unsubscribePathIn(fixture.mails[0]);
    const branded = (html: string) => {
      expect(html).toContain('style="--accent:#ffd43b;--on-accent:#000000"');
      expect(html).toMatch(/<img class="logo" src="\/d\/logo\/[0-9a-f]{32}\.webp"/);
      expect(html).toContain("<span>Nordlicht</span>");
      expect(html).toContain('<a href="mailto:hallo@nordlicht.example"');
      expect(html).toContain('<a href="tel:+49301234"');
      expect(html).not.toContain("Photo Delivery, Fast");
    };
    const form = await request(s.t.app).get(path);
    branded(form.text);
    expect(form.text).toContain(">Unsubscribe</button>");

    branded((await request(s.t.app).post(path)).text);
    const again = await request(s.t.app).get(path);
    expect(again.status).toBe(200);
    branded(again.text);
    expect(again.text).toContain("<h1>You&#39;re unsubscribed</h1>");
    expect(again.text).toContain("Nordlicht will send no more e-mails to ana@lima.test.");
    expect(again.text).not.toContain("<button");
    expect(again.text).not.toContain("<form");
  });

  it("answers an unknown or malformed link with a 404 page and changes nothing", async () => {
    s = await fixture.studio();
    await sendMail(s.t, s.staff, s.delivery.id, { contactIds: [s.ana] }).expect(200);
    for (const token of ["AAAAAAAAAAAAAAAAAAAAAA", "not valid", "x".repeat(200)]) {
      for (const method of ["get", "post"] as const) {
        const res = await request(s.t.app)[method](`/unsubscribe/${encodeURIComponent(token)}`);
        expect(res.status).toBe(404);
        expect(res.text).toContain("This unsubscribe link is not valid");
      }
    }
    expect(await anaIsUnsubscribed()).toBe(false);
  });
});
