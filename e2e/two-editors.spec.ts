import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Locator, Page } from "playwright-core";
import { adminToken, create, getJson, putJson, signUpAccount } from "./api";
import { launchBrowser, newPage, screenshot, signInAsAdmin } from "./browser";
import { arrangeClientWithProject, type Named } from "./fixtures/cleanup";

const SECOND_EMAIL = "blake.two-editors@photodrop.test";
const SECOND_PASSWORD = "Two-editors-password-1";
const SECOND_NAME = "Blake Second";

interface Versioned {
  version: number;
  updatedBy: { uid: string; name: string } | null;
}
type StoredProject = Versioned & { name: string; description: string | null; delivery: Record<string, unknown> };
type StudioSettings = Versioned & Record<string, string | number | null>;

const TOLD = /changed .+ while you were editing/;

/** A second admin of the studio, signed up and approved through the API. */
async function arrangeSecondAdmin(): Promise<void> {
  const token = await adminToken();
  await signUpAccount(SECOND_EMAIL, SECOND_PASSWORD, SECOND_NAME);
  const users = await getJson<Array<{ uid: string; email: string }>>(token, "users?_start=0&_end=100");
  const uid = users.find((user) => user.email === SECOND_EMAIL)?.uid;
  if (!uid) throw new Error("The second account is not in the users list");
  for (const change of [{ hasAccess: true }, { role: "admin" }]) {
    const answer = await putJson(token, `users/${uid}`, change);
    if (!answer.ok) throw new Error(`Approving the second account failed: ${answer.status}`);
  }
}

const storedProject = async (id: number) =>
  (await getJson<StoredProject[]>(await adminToken(), `projects?id=${id}`))[0];

/** Polls the stored record until it holds `changes`: both editors' edits kept. */
const expectStored = (read: () => Promise<object>, changes: Record<string, unknown>) =>
  expect.poll(read).toMatchObject(changes);

/**
 * The second editor's save: kept (the form closes, or says it saved), or refused with the conflict
 * said in the form, which is then applied on top. Either way both changes must end up stored.
 */
async function saveOnTop(page: Page, form: Locator, save: Locator, saved: () => Promise<boolean>) {
  await save.click();
  const told = form.getByRole("alert").filter({ hasText: TOLD });
  await expect.poll(async () => (await told.isVisible()) || (await saved())).toBe(true);
  if (await told.isVisible()) {
    await screenshot(page, "two-editors-told");
    await told.getByRole("button", { name: "Apply my changes on top" }).click();
  }
}

describe("two editors, one record: the second save keeps the first's change or is told", () => {
  let browser: Browser;
  let client: Named;
  let project: Named;
  let removeArranged: (() => Promise<void>) | undefined;
  let first: Page;
  let second: Page;

  beforeAll(async () => {
    ({ client, project, remove: removeArranged } = await arrangeClientWithProject("Two Editors Client", "Two Editors"));
    await arrangeSecondAdmin();
    browser = await launchBrowser();
    first = (await newPage(browser)).page;
    second = (await newPage(browser)).page;
    await signInAsAdmin(first);
    await signInAsAdmin(second, SECOND_EMAIL, SECOND_PASSWORD);
  });

  afterAll(async () => {
    await browser?.close();
    await removeArranged?.();
  });

  /** The same form opened in the first editor's page, then in the second's. */
  const openInBoth = async (open: (page: Page) => Promise<Locator>) => [await open(first), await open(second)];

  /**
   * The first editor saves `firstEdit`, then the second saves `secondEdit` over it (saveOnTop). A
   * save shows as its dialog closing or, given `notice`, as that notice on the page.
   */
  async function saveOneThenTheOther(
    [a, b]: Locator[],
    firstEdit: (form: Locator) => Promise<unknown>,
    secondEdit: (form: Locator) => Promise<unknown>,
    { save = "Save", notice }: { save?: string; notice?: string } = {},
  ) {
    await firstEdit(a);
    await a.getByRole("button", { name: save }).click();
    if (notice) await first.getByText(notice).waitFor();
    else await a.waitFor({ state: "hidden" });

    await secondEdit(b);
    const savedNotice = notice ? second.getByText(notice) : undefined;
    await saveOnTop(second, b, b.getByRole("button", { name: save }), () =>
      savedNotice ? savedNotice.isVisible() : b.isHidden(),
    );
    if (!notice) await b.waitFor({ state: "hidden" });
  }

  it("project: one changes the description, the other the name; both are kept", async () => {
    const dialogs = await openInBoth(async (page) => {
      await page.goto(`/projects/${project.id}`);
      await page.getByRole("button", { name: "Edit Project" }).click();
      const dialog = page.getByRole("dialog", { name: "Edit Project" });
      await dialog.getByLabel("Name").waitFor();
      return dialog;
    });
    await saveOneThenTheOther(
      dialogs,
      (a) => a.getByLabel("Description").fill("Golden hour on the pier"),
      (b) => b.getByLabel("Name").fill("Two Editors, renamed"),
    );
    await expectStored(() => storedProject(project.id), {
      name: "Two Editors, renamed",
      description: "Golden hour on the pier",
    });
  });

  it("client: both change its one field; the second is told who changed it, and nothing is undone", async () => {
    const [a, b] = await openInBoth(async (page) => {
      await page.goto(`/clients/${client.id}`);
      await page.getByRole("button", { name: "Edit Client" }).click();
      return page.getByRole("dialog", { name: "Edit Client" });
    });
    // The second editor is typing when the first saves.
    await b.getByLabel("Name").fill("Two Editors Client (Blake)");
    await a.getByLabel("Name").fill("Two Editors Client (Admin)");
    await a.getByRole("button", { name: "Save" }).click();
    await a.waitFor({ state: "hidden" });
    const { updatedBy } = await getJson<Versioned>(await adminToken(), `clients/${client.id}`);

    // Told as the change arrives live, or at the latest when saving over it.
    const told = b.getByRole("alert").filter({ hasText: `${updatedBy?.name} changed Name while you were editing` });
    await told.waitFor({ timeout: 5_000 }).catch(() => b.getByRole("button", { name: "Save" }).click());
    await told.waitFor();
    await screenshot(second, "two-editors-client-told");
    expect(await b.getByRole("textbox", { name: "Name" }).inputValue()).toBe("Two Editors Client (Blake)");
    const stored = await getJson<{ name: string }>(await adminToken(), `clients/${client.id}`);
    expect(stored.name).toBe("Two Editors Client (Admin)");

    await told.getByRole("button", { name: "Discard my changes" }).click();
    await expect.poll(() => b.getByRole("textbox", { name: "Name" }).inputValue()).toBe("Two Editors Client (Admin)");
    await b.getByRole("button", { name: "Cancel" }).click();
  });

  it("contact: one changes the e-mail, the other the phone; both are kept", async () => {
    const token = await adminToken();
    const contact = await create<{ id: number }>(token, "contacts", { clientId: client.id, name: "Robin Pier" });
    const dialogs = await openInBoth(async (page) => {
      await page.goto(`/clients/${client.id}`);
      await page.getByRole("tab", { name: "Robin Pier" }).click();
      await page.getByRole("tabpanel").getByRole("button", { name: "Edit" }).click();
      return page.getByRole("dialog", { name: "Edit Contact" });
    });
    await saveOneThenTheOther(
      dialogs,
      (a) => a.getByLabel("Email").fill("robin@pier.test"),
      (b) => b.getByLabel("Phone").fill("+44 20 7946 0000"),
    );
    await expectStored(async () => getJson<object>(await adminToken(), `contacts/${contact.id}`), {
      email: "robin@pier.test",
      phoneNumber: "+44 20 7946 0000",
    });
  });

  it("studio settings: one changes the phone, the other the web site; both are kept", async () => {
    const token = await adminToken();
    const before = await getJson<StudioSettings>(token, "studio/settings");
    try {
      const forms = await openInBoth(async (page) => {
        await page.goto("/studio");
        const form = page.getByRole("form", { name: "Studio settings" });
        await form.getByLabel("Contact phone").waitFor();
        return form;
      });
      const [a] = forms;
      await saveOneThenTheOther(
        forms,
        (form) => form.getByLabel("Contact phone").fill("+44 20 7946 0100"),
        (form) => form.getByLabel("Web site").fill("https://two-editors.test"),
        { save: "Save studio settings", notice: "Studio settings saved" },
      );
      await expectStored(() => getJson<StudioSettings>(token, "studio/settings"), {
        contactPhone: "+44 20 7946 0100",
        contactWebsite: "https://two-editors.test",
      });
      // The first editor's form followed the second's save.
      await expect.poll(() => a.getByLabel("Web site").inputValue()).toBe("https://two-editors.test");
    } finally {
      const { contactPhone, contactWebsite } = before;
      await putJson(await adminToken(), "studio/settings", { contactPhone, contactWebsite });
    }
  });

  it("delivery settings: one sets a favourites limit, the other offers the web size; both are kept", async () => {
    const cards = await openInBoth(async (page) => {
      await page.goto(`/projects/${project.id}`);
      const card = page.getByRole("form", { name: "Delivery settings" });
      await card.getByLabel("Favourites limit").waitFor();
      return card;
    });
    const [, b] = cards;
    await saveOneThenTheOther(
      cards,
      (a) => a.getByLabel("Favourites limit").fill("12"),
      // Mantine draws the switch over a zero-sized checkbox: a person clicks its label.
      (card) => card.getByText("Offer web-size downloads", { exact: true }).click(),
      { save: "Save delivery settings", notice: "Delivery settings saved" },
    );
    await expectStored(async () => (await storedProject(project.id)).delivery, {
      favouritesLimit: 12,
      offerWebSize: true,
    });
    await expect.poll(() => b.getByLabel("Favourites limit").inputValue()).toBe("12");
  });
});
