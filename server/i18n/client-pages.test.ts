import request from "supertest";
import { describe, expect, it } from "vitest";
import type { SendingDraft } from "../../api/types";
import { mailParts } from "../test/mail-parts";
import { expireLink, PUBLIC_URL, sendMail, setDelivery, studioFixture } from "../sending/test-fixtures";
import { sendDueReminders } from "../reminders/reminders.service";
import { directionOf, SUPPORTED_LANGUAGES } from "./languages";
import { translator } from "./i18n";
import { ENGLISH_SENTENCES, englishIn } from "./test-helpers";

const fixture = studioFixture();
const DAY = 24 * 3600 * 1000;

describe("the English sentences the other languages are checked against", () => {
  it("are the catalogue's, sentence by sentence", () => {
    expect(ENGLISH_SENTENCES).toContain("Who is choosing?");
    expect(ENGLISH_SENTENCES).toContain("are ready. You can view them and download them all from the link below.");
    expect(ENGLISH_SENTENCES.length).toBeGreaterThan(80);
    expect(englishIn("de", "<p>Wer wählt aus?</p>")).toEqual([]);
    expect(englishIn("de", "<p>You&#39;re unsubscribed</p>")).toEqual(["You're unsubscribed"]);
  });
});

/**
 * For each language: the project set to it through the API, then everything its client sees —
 * the gallery, the passcode page, the expired page, the unsubscribe page, the mail with the link
 * (its subject and words as the send dialog offers them) and the reminder — drawn for real.
 */
describe.each(SUPPORTED_LANGUAGES)("a gallery in %s", (lang) => {
  it("shows its client every page and mail in that language, with <html lang> and dir saying so", async () => {
    const s = await fixture.studio();
    const api = () => request(s.t.app);
    const project = `/api/projects/${s.delivery.id}`;
    const set = await api().put(`${project}/delivery`).set(s.staff.auth).send({ language: lang });
    expect(set.status).toBe(200);
    expect(set.body.delivery.language).toBe(lang);

    const gallery = await api().get(s.delivery.page).expect(200);

    const draft = (await api().get(`${project}/sending`).set(s.staff.auth)).body as SendingDraft;
    await sendMail(s.t, s.staff, s.delivery.id, {
      contactIds: [s.ana],
      subject: draft.subject,
      message: draft.message,
    }).expect(200);
    const linkMail = mailParts(fixture.mails[0].raw);

    await setDelivery(s, { expiresAt: new Date(Date.now() + 2 * DAY).toISOString() });
    await s.t.ctx
      .db("delivery_recipients")
      .where({ project_id: s.delivery.id })
      .update({ sent_at: new Date(Date.now() - 2 * DAY).toISOString() });
    expect(await sendDueReminders(s.t.ctx)).toBe(1);
    const reminder = mailParts(fixture.mails[1].raw);

    const unsubscribeUrl = /<([^>]+)>/.exec(linkMail.header("List-Unsubscribe")[0] ?? "")![1];
    expect(unsubscribeUrl.startsWith(`${PUBLIC_URL}/unsubscribe/`)).toBe(true);
    // The header's one human-readable word, its comment, is the mail's language too.
    const comment = ` (${translator(lang).t("unsubscribe.button")})`;
    expect(linkMail.header("List-Unsubscribe")).toEqual([`<${unsubscribeUrl}>${comment}`]);
    expect(reminder.header("List-Unsubscribe")[0]?.endsWith(`>${comment}`)).toBe(true);
    const unsubscribe = await api().get(unsubscribeUrl.slice(PUBLIC_URL.length)).expect(200);

    await setDelivery(s, { passcode: "open sesame" });
    const passcode = await api().get(s.delivery.page).expect(200);
    expect(passcode.text).toContain('name="passcode"');

    await expireLink(s, 1000);
    const expired = await api().get(s.delivery.page).expect(410);

    const pages = { gallery, passcode, expired, unsubscribe };
    const dir = directionOf(lang);
    for (const [name, page] of Object.entries(pages)) {
      expect(page.text.slice(0, 60), name).toContain(`<html lang="${lang}" dir="${dir}">`);
      expect(page.headers["content-language"], name).toBe(lang);
    }
    for (const [name, mail] of Object.entries({ linkMail, reminder }))
      expect(mail.html, name).toContain(`<html lang="${lang}" dir="${dir}">`);

    const shown: Record<string, string> = {
      ...Object.fromEntries(Object.entries(pages).map(([name, page]) => [name, page.text])),
      linkMailSubject: linkMail.header("Subject")[0],
      linkMailText: linkMail.text,
      linkMailHtml: linkMail.html,
      reminderSubject: reminder.header("Subject")[0],
      reminderText: reminder.text,
      reminderHtml: reminder.html,
    };
    if (lang === "en") {
      expect(shown.gallery).toContain("Download all (ZIP, ");
      expect(shown.linkMailText).toContain("View and download the photos:");
      return;
    }
    for (const [name, text] of Object.entries(shown)) expect(englishIn(lang, text), `${lang}: ${name}`).toEqual([]);
  });
});
