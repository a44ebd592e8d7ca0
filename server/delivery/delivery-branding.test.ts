import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { makeImage } from "../attachments/test-fixtures";
import { publishDelivery, type PublishedDelivery } from "./test-fixtures";

let t: TestApp;
let admin: TestUser;
let d: PublishedDelivery;
beforeAll(async () => {
  t = await createTestApp({ STUDIO_NAME: "Lumen Studio" });
  admin = await createUser(t.ctx, { role: "admin" });
  d = await publishDelivery(t, admin, { name: "Lima Wedding" });
});
afterAll(async () => {
  await t.close();
});

const api = () => request(t.app);
const page = async (url = d.page) => (await api().get(url)).text;
const brand = (body: object) => api().put("/api/studio/settings").set(admin.auth).send(body);
const expire = async (id: number) => {
  await t.ctx
    .db("projects")
    .where({ id })
    .update({ delivery_expires_at: new Date(Date.now() - 1000).toISOString() });
  t.ctx.events.resourceChanged({ resource: "projects", type: "updated", ids: [id] });
};

describe("the delivery page's branding", () => {
  it("shows STUDIO_NAME and the default accent with white text while nothing is saved", async () => {
    const html = await page();
    expect(html).toContain("<span>Lumen Studio</span>");
    expect(html).toContain('<body style="--accent:#1971c2;--on-accent:#ffffff">');
    expect(html).not.toContain('class="logo"');
    expect(html).not.toContain("<footer>");
  });

  it("shows the saved name, logo, accent and contact line on the next request (the page's caches are dropped)", async () => {
    await page();
    expect((await brand({ name: "Lumen & <Co>", accentColor: "#ffd43b" })).status).toBe(200);
    const logo = await api()
      .put("/api/studio/logo")
      .set(admin.auth)
      .set("Content-Type", "image/png")
      .send(await makeImage("png", 200, 80));
    await brand({
      contactEmail: "hello@lumen.test",
      contactPhone: "+44 (20) 7946-0000",
      contactWebsite: "https://lumen.test/",
    });
    const html = await page();
    expect(html).toContain("<span>Lumen &#38; &#60;Co&#62;</span>");
    expect(html).not.toContain("<Co>");
    expect(html).toContain(`<img class="logo" src="${logo.body.logoUrl}" alt="" height="40">`);
    // Yellow takes black text.
    expect(html).toContain('<body style="--accent:#ffd43b;--on-accent:#000000">');
    expect(html).toContain('<a href="mailto:hello@lumen.test" rel="noopener">hello@lumen.test</a>');
    expect(html).toContain('<a href="tel:+442079460000" rel="noopener">+44 (20) 7946-0000</a>');
    expect(html).toContain('<a href="https://lumen.test/" rel="noopener">lumen.test</a>');
    expect(html).toContain("<title>Lima Wedding · Lumen &#38; &#60;Co&#62;</title>");
    // The logo comes from our own origin, so the strict policy stays as it was.
    const csp = (await api().get(d.page)).headers["content-security-policy"];
    expect(csp).toContain("img-src 'self' data: blob:");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/img-src[^;]*https?:/);
  });

  it("shows the studio on the passcode form", async () => {
    const locked = await publishDelivery(t, admin, { name: "Private" });
    await api().put(`/api/projects/${locked.id}/delivery`).set(admin.auth).send({ passcode: "correct horse" });
    const html = await page(locked.page);
    expect(html).toContain("Enter the passcode");
    expect(html).toContain("<span>Lumen &#38; &#60;Co&#62;</span>");
    expect(html).toContain('class="logo"');
    expect(html).toContain("mailto:hello@lumen.test");
    expect(html).toContain("--on-accent:#000000");
  });

  it("says 'Ask the studio' on the expired page, with a way to reach it", async () => {
    const gone = await publishDelivery(t, admin, { name: "Old wedding" });
    await expire(gone.id);
    const res = await api().get(gone.page);
    expect(res.status).toBe(410);
    expect(res.text).toContain("This delivery has expired");
    expect(res.text).toContain('<a class="button" href="mailto:hello@lumen.test" rel="noopener">Ask the studio</a>');
    expect(res.text).toContain("tel:+442079460000");
    expect(res.text).not.toContain("Old wedding");
  });

  it("falls back to the phone, then the web site, for 'Ask the studio'", async () => {
    const gone = await publishDelivery(t, admin);
    await expire(gone.id);
    await brand({ contactEmail: "" });
    expect(await page(gone.page)).toContain(
      '<a class="button" href="tel:+442079460000" rel="noopener">Ask the studio</a>',
    );
    await brand({ contactPhone: null });
    expect(await page(gone.page)).toContain(
      '<a class="button" href="https://lumen.test/" rel="noopener">Ask the studio</a>',
    );
    await brand({ contactWebsite: null });
    expect(await page(gone.page)).not.toContain("Ask the studio</a>");
  });
});

describe("the delivery page's cover and grid", () => {
  it("puts the first photo across the top under the studio's and the project's names", async () => {
    const html = await page();
    expect(html).toMatch(
      /<div class="cover"><img src="v\/1" alt=""[^>]*><div class="cover-text"><p class="studio">.*<\/p><h1>Lima Wedding<\/h1><\/div><\/div>/,
    );
  });

  it("keeps each photo's aspect ratio from its recorded size, in the page and in later parts", async () => {
    const ids = (await t.ctx.db("attachments").where({ project_id: d.id }).orderBy("id").select("id")).map(
      (r: { id: number }) => r.id,
    );
    await t.ctx.db("attachments").where({ id: ids[0] }).update({ width: 6000, height: 4000 });
    await t.ctx.db("attachments").where({ id: ids[1] }).update({ width: 4000, height: 6000 });
    t.ctx.events.resourceChanged({ resource: "attachments", type: "updated", ids });
    const html = await page();
    expect(html.match(/<li(?: [^>]*)?>/g)).toEqual(['<li style="--r:1.5">', '<li style="--r:0.667">', "<li>"]);
    const part = await api().get(`${d.page}/photos?from=1`);
    expect(part.body.photos.map((p: { ratio: number | null }) => p.ratio)).toEqual([1.5, 0.667, null]);
  });
});
