import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import type { Browser, Page } from "playwright-core";
import { create, getJson, putJson, signUpAccount } from "./api";
import { screenshot, signInAsAdmin, SIZES } from "./browser";
import { expectNoSeriousAxeViolations } from "./axe";
import type { FreshServer } from "./fresh-server";
import { imageFile } from "./fixtures/images";
import { publishThroughApi } from "./fixtures/publish";
import { uploadThroughApi } from "./fixtures/upload";
import { deliveryLinkIn, startSendingSetup, type SendingSetup } from "./sending-setup";
import type { SmtpInbox } from "../server/test/smtp-inbox";
import { mailParts } from "../server/test/mail-parts";

/**
 * Issue 47's studio findings, as a studio meets them: Studio settings that keep what was typed
 * across a logo upload, the client's mail and unsubscribe page in the studio's brand, and a
 * client's selection said in the web app (the bell, the Favourites card high on the project).
 */
const ADMIN = { email: "ada@nordlicht.test", password: "ada-password-1" };
const STUDIO = "Nordlicht Fotografie";

let setup: SendingSetup;
let smtp: SmtpInbox;
let server: FreshServer;
let browser: Browser;
let lanUrl: string;
let token: string;

beforeAll(async () => {
  ({ smtp, server, browser, lanUrl } = setup = await startSendingSetup());
  token = await signUpAccount(ADMIN.email, ADMIN.password, "Ada Admin", server.baseUrl);
});
afterAll(() => setup?.stop());

async function staffPage(viewport: { width: number; height: number } = { width: 1440, height: 900 }): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.baseUrl, viewport, bypassCSP: true });
  context.setDefaultTimeout(20_000);
  const page = await context.newPage();
  await signInAsAdmin(page, ADMIN.email, ADMIN.password);
  return page;
}

const logoPng = () =>
  sharp({ create: { width: 300, height: 100, channels: 3, background: "#5c3d2e" } })
    .png()
    .toBuffer();

/** The studio as the Studio settings journey leaves it, through the API (this journey may run alone). */
async function brandStudio(): Promise<void> {
  const auth = { Authorization: `Bearer ${token}` };
  const saved = await fetch(`${server.baseUrl}/api/studio/settings`, {
    method: "PATCH",
    headers: { ...auth, "Content-Type": "application/json" },
    body: JSON.stringify({
      name: STUDIO,
      accentColor: "#ffd43b",
      contactEmail: "hallo@nordlicht.example",
      contactPhone: "+49 30 1234567",
      contactWebsite: "nordlicht.example",
      timeZone: "Europe/Berlin",
    }),
  });
  expect(saved.status).toBe(200);
  const logo = await fetch(`${server.baseUrl}/api/studio/logo`, {
    method: "PUT",
    headers: { ...auth, "Content-Type": "image/png" },
    body: new Uint8Array(await logoPng()),
  });
  expect(logo.status).toBe(200);
}

/** A published project of the Lima family with three photos, sent to Ana; her mail as received. */
async function sentProject() {
  const client = await create<{ id: number }>(token, "clients", { name: "Lima Family" }, server.baseUrl);
  const ana = await create<{ id: number }>(
    token,
    "contacts",
    { name: "Ana Lima", email: "ana@lima.test", clientId: client.id },
    server.baseUrl,
  );
  const project = await create<{ id: number }>(
    token,
    "projects",
    { name: "Lima Wedding", clientId: client.id },
    server.baseUrl,
  );
  for (const [name, color] of [
    ["first-dance.jpg", "#fbc2eb"],
    ["the-rings.jpg", "#84fab0"],
    ["sparklers.jpg", "#30cfd0"],
  ])
    await uploadThroughApi(token, project.id, await imageFile(name, "jpeg", color, 640), server.baseUrl);
  const delivery = await putJson(
    token,
    `projects/${project.id}/delivery`,
    { expiresAt: "2099-03-14T18:30:00.000Z" },
    server.baseUrl,
  );
  expect(delivery.status).toBe(200);
  await publishThroughApi(token, project.id, 60_000, server.baseUrl);
  smtp.mails.length = 0;
  const sent = await fetch(`${server.baseUrl}/api/projects/${project.id}/sending`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: JSON.stringify({
      contactIds: [ana.id],
      emails: [],
      subject: "Your photos",
      message: "Hello Ana,\n\nYour photos are ready.",
    }),
  });
  expect(sent.status).toBe(200);
  await expect.poll(() => smtp.mails.length).toBe(1);
  return { projectId: project.id, raw: smtp.mails[0].raw };
}

describe("Studio settings", () => {
  it.each(SIZES)(
    "keep what was typed across a refused save and a logo upload, complete the web site, and name the studio in the header ($name)",
    async ({ name, viewport }) => {
      const page = await staffPage(viewport);
      await page.goto("/studio");
      const save = page.getByRole("button", { name: "Save studio settings" });
      await save.waitFor();
      const typed = {
        "Studio name": `${STUDIO}`,
        "Contact e-mail": "hallo@nordlicht.example",
        "Contact phone": "call us",
        "Web site": "nordlicht.example",
      };
      for (const [label, value] of Object.entries(typed)) await page.getByLabel(label).fill(value);
      await page.getByLabel("Accent colour", { exact: true }).fill("#ffd43b");
      await save.click();
      await page.getByText("A phone number may hold only digits, spaces and + ( ) - . /").waitFor();

      await page
        .locator('input[type="file"]')
        .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: await logoPng() });
      await page.getByText("Logo saved").waitFor();
      await page.getByRole("img", { name: "Studio logo" }).waitFor();
      // The toast is up: its close button is named (axe's button-name).
      await expectNoSeriousAxeViolations(page, `studio with the 'Logo saved' toast (${name})`);
      for (const [label, value] of Object.entries(typed))
        expect(await page.getByLabel(label).inputValue(), label).toBe(value);
      expect(await page.getByLabel("Accent colour", { exact: true }).inputValue()).toBe("#ffd43b");

      await page.getByLabel("Contact phone").fill("+49 30 1234567");
      await page.getByLabel("Time zone").fill("Europe/Berl");
      await page.getByRole("option", { name: "Europe/Berlin" }).click();
      await save.click();
      await page.getByText("Studio settings saved").waitFor();
      await expect.poll(() => page.getByLabel("Web site").inputValue()).toBe("https://nordlicht.example");
      const stored = await getJson<Record<string, unknown>>(token, "studio/settings", server.baseUrl);
      expect(stored).toMatchObject({
        name: STUDIO,
        accentColor: "#ffd43b",
        contactPhone: "+49 30 1234567",
        contactWebsite: "https://nordlicht.example",
        timeZone: "Europe/Berlin",
      });
      // The header names the studio, with the product's line under it, each whole at this size.
      const header = page.getByRole("banner");
      await expect.poll(() => header.getByTestId("studio-name").textContent()).toBe(STUDIO);
      for (const line of [header.getByTestId("studio-name"), header.getByText("Photodrop - Photo Delivery, Fast")])
        expect(await line.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
      await screenshot(page, `studio-findings-settings-${name}`);
      await page.context().close();
    },
  );
});

describe("the client's side in the studio's brand", () => {
  it("mails in the accent with the logo, the contact line and Berlin time, fitting 320 px; a branded unsubscribe page that knows its state; the studio's name in the header", async () => {
    await brandStudio();
    const { raw } = await sentProject();
    const mail = mailParts(raw);
    expect(mail.html).toMatch(/class="button" style="[^"]*background:#ffd43b;color:#000000/);
    expect(mail.html).toContain('src="cid:studio-logo"');
    expect(raw).toMatch(/^Content-ID: <studio-logo>/m);
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain("hallo@nordlicht.example");
      expect(part).toContain("+49 30 1234567");
      expect(part).toContain("https://nordlicht.example");
      expect(part).toContain("Available until Saturday 14 March 2099, 19:30 CET.");
      expect(part).not.toContain("Photo Delivery, Fast");
    }

    // The mail's HTML on a 320 px phone: nothing runs past the screen.
    const narrow = await browser.newContext({ viewport: { width: 320, height: 640 } });
    const mailView = await narrow.newPage();
    await mailView.setContent(mail.html);
    expect(await mailView.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    // Nor past its card: no element (the long link above all) reaches beyond the box around it.
    const overflowing = await mailView.evaluate(() =>
      [...document.body.querySelectorAll("*")]
        .filter((element) => {
          const parent = element.parentElement;
          if (!parent || parent === document.body) return false;
          return element.getBoundingClientRect().right > parent.getBoundingClientRect().right + 0.5;
        })
        .map((element) => `${element.tagName} ${element.textContent?.trim().slice(0, 40)}`),
    );
    expect(overflowing).toEqual([]);
    await screenshot(mailView, "studio-findings-mail-320");

    // The gallery's header reads the studio's name.
    const link = deliveryLinkIn(lanUrl, mail.text)!;
    const gallery = await narrow.newPage();
    await gallery.goto(link);
    await gallery.getByRole("heading", { name: "Lima Wedding" }).waitFor();
    await expect.poll(() => gallery.locator(".cover .studio").textContent()).toContain(STUDIO);
    expect(await gallery.title()).toContain(STUDIO);
    expect(await gallery.content()).not.toContain("Photo Delivery, Fast");

    // Unsubscribe: branded, and once out, no second button.
    const unsubscribe = new RegExp(`${lanUrl}/unsubscribe/[A-Za-z0-9_-]+`).exec(mail.text)![0];
    const page = await narrow.newPage();
    await page.goto(unsubscribe);
    const branded = async () => {
      await expect
        .poll(() => page.locator("img.logo").evaluate((img) => (img as HTMLImageElement).naturalWidth))
        .toBeGreaterThan(0);
      await page.getByText(STUDIO, { exact: true }).first().waitFor();
      await page.getByRole("link", { name: "hallo@nordlicht.example" }).waitFor();
      expect(await page.evaluate(() => getComputedStyle(document.body).getPropertyValue("--accent").trim())).toBe(
        "#ffd43b",
      );
    };
    await branded();
    await page.getByRole("button", { name: "Unsubscribe" }).click();
    await page.getByRole("heading", { name: "You're unsubscribed" }).waitFor();
    await page.goto(unsubscribe);
    await page.getByRole("heading", { name: "You're unsubscribed" }).waitFor();
    await branded();
    expect(await page.getByRole("button", { name: "Unsubscribe" }).count()).toBe(0);
    await screenshot(page, "studio-findings-unsubscribed");
    await narrow.close();
  });
});

describe("a client's selection", () => {
  it("shows in the bell's list and puts the Favourites card above the photos", async () => {
    const project = await create<{ id: number }>(token, "projects", { name: "Berg Portraits" }, server.baseUrl);
    for (const [name, color] of [
      ["berg-1.jpg", "#ffd8a8"],
      ["berg-2.jpg", "#a5d8ff"],
    ])
      await uploadThroughApi(token, project.id, await imageFile(name, "jpeg", color, 480), server.baseUrl);
    const { deliveryUrl } = await publishThroughApi(token, project.id, 60_000, server.baseUrl);
    const deliveryPath = new URL(deliveryUrl!, lanUrl).pathname;

    const staff = await staffPage();
    await staff.goto(`/projects/${project.id}`);
    await staff.getByRole("heading", { name: /^Attachments \(2\)/ }).waitFor();
    const bell = staff.getByRole("button", { name: /^Notification settings/ });
    await bell.waitFor();
    expect(await bell.getAttribute("aria-label")).toBe("Notification settings");

    // The client chooses two photos on the gallery and sends them, as the page's script does.
    const client = await browser.newPage({ baseURL: lanUrl });
    await client.goto(deliveryPath);
    await client.getByRole("heading", { name: "Berg Portraits" }).waitFor();
    const status = await client.evaluate(async () => {
      const call = (method: string, path: string, body?: object) =>
        fetch(`favourites${path}`, {
          method,
          credentials: "same-origin",
          headers: body ? { "Content-Type": "application/json" } : {},
          body: body ? JSON.stringify(body) : undefined,
        }).then((r) => r.status);
      return [
        await call("POST", "/visitor", { name: "Ana Lima", email: "ana@lima.test" }),
        await call("PUT", "/1", {}),
        await call("PUT", "/2", {}),
        await call("POST", "/submit"),
      ];
    });
    expect(
      status.every((s) => s < 300),
      JSON.stringify(status),
    ).toBe(true);

    await expect.poll(() => bell.getAttribute("aria-label")).toBe("Notification settings, 1 new");
    await bell.click();
    const notice = staff.getByRole("link", { name: "Ana Lima sent their selection of 2 photos for Berg Portraits" });
    await notice.waitFor();
    await screenshot(staff, "studio-findings-bell", { fullPage: false });
    await notice.click();
    await expect.poll(() => bell.getAttribute("aria-label")).toBe("Notification settings");

    const favourites = staff.locator('[aria-label="Favourites"]');
    await favourites.getByText("Ana Lima", { exact: true }).waitFor();
    const above = async () => {
      const card = (await favourites.boundingBox())!;
      const photos = (await staff.getByRole("heading", { name: /^Attachments \(2\)/ }).boundingBox())!;
      return card.y < photos.y;
    };
    await expect.poll(above).toBe(true);
    await expectNoSeriousAxeViolations(staff, "project page with favourites");
    await client.close();
    await staff.context().close();
  });
});
