import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, RELAXED_LIMITS, signUp, type SessionBody } from "../auth/auth-test-helpers";
import { makeNoisyJpeg } from "../attachments/test-fixtures";
import { startTwoProcesses, type AppProcess, type TwoProcesses } from "../test/app-process";
import { until } from "../test/wait";

/**
 * Two real Photodrop processes on one PostgreSQL database: B answers a delivery from memory, and a
 * change made through A holds on the very next request to B, with no wait in between.
 */
let two: TwoProcesses;
let a: AppProcess;
let b: AppProcess;
let admin: SessionBody;

beforeAll(async () => {
  two = await startTwoProcesses("photodrop-two-delivery-", RELAXED_LIMITS);
  ({ a, b } = two);
  admin = await signUp(a.url, "owner@studio.test");
}, 120_000);

afterAll(() => two?.stop());

const auth = () => bearer(admin.accessToken);

async function publishThroughA(id: number): Promise<string> {
  expect((await request(a.url).post(`/api/projects/${id}/publish`).set(auth())).status).toBe(202);
  const project = await until(
    async () => (await request(a.url).get(`/api/projects/${id}`).set(auth())).body,
    (p) => p.publishStatus === "published" || p.publishStatus === "failed",
  );
  expect(project.publishStatus).toBe("published");
  return project.deliveryUrl as string;
}

/** A published project of three photos made through A, each of its files once asked of B (so B holds it). */
async function deliveryHeldByB(name: string): Promise<{ id: number; page: string; photoIds: number[] }> {
  // In upload order: the tests name photos by their position as uploaded.
  const project = await request(a.url).post("/api/projects").set(auth()).send({ name, photoOrder: "uploaded" });
  const photoIds: number[] = [];
  for (const file of ["one.jpg", "two.jpg", "three.jpg"]) {
    const res = await request(a.url)
      .post(`/api/attachments/projects/${project.body.id}/upload`)
      .set(auth())
      .attach("file", await makeNoisyJpeg(400, 300), file);
    expect(res.status).toBe(201);
    photoIds.push(res.body.id);
  }
  const page = await publishThroughA(project.body.id);
  await holdOnB(page);
  return { id: project.body.id, page, photoIds };
}

async function holdOnB(page: string) {
  for (const url of [page, `${page}/p/1`, `${page}/t/2`, `${page}/p/3/download`])
    expect((await request(b.url).get(url)).status, url).toBe(200);
}

const onB = async (url: string) => (await request(b.url).get(url)).status;
const settings = (id: number, body: object) =>
  request(a.url).put(`/api/projects/${id}/delivery`).set(auth()).send(body);

describe("a delivery held in B's memory, changed through A", () => {
  it("answers a regenerated link's old address with 404 and its new one at once", async () => {
    const d = await deliveryHeldByB("Regenerated");
    for (let round = 0; round < 3; round++) {
      const page = (await request(a.url).get(`/api/projects/${d.id}`).set(auth())).body.deliveryUrl;
      const res = await request(a.url).post(`/api/projects/${d.id}/delivery/regenerate`).set(auth());
      expect(res.status).toBe(200);
      expect(await onB(`${page}/p/1`)).toBe(404);
      expect(await onB(`${res.body.deliveryUrl}/p/1`)).toBe(200);
    }
  });

  it("answers 410 once an expiry set through A has passed, though the link is held in memory", async () => {
    const d = await deliveryHeldByB("Expiring");
    // A past expiry is refused, and changes nothing.
    expect((await settings(d.id, { expiresAt: new Date(Date.now() - 1000).toISOString() })).status).toBe(400);
    expect(await onB(`${d.page}/t/2`)).toBe(200);
    const soon = new Date(Date.now() + 1500).toISOString();
    expect((await settings(d.id, { expiresAt: soon })).status).toBe(200);
    expect(await onB(`${d.page}/t/2`)).toBe(200);
    await until(
      () => Date.now(),
      (now) => now > Date.parse(soon),
      5_000,
    );
    for (const url of [d.page, `${d.page}/p/1`, `${d.page}/t/2`, `${d.page}/all.zip`])
      expect(await onB(url), url).toBe(410);
  });

  it("asks for a passcode set through A at once, and stops asking the moment it is removed", async () => {
    const d = await deliveryHeldByB("Locked and unlocked");
    for (let round = 0; round < 3; round++) {
      expect((await settings(d.id, { passcode: "secret-1" })).status).toBe(200);
      expect(await onB(`${d.page}/p/1`)).toBe(401);
      expect(await onB(`${d.page}/all.zip`)).toBe(401);
      expect((await settings(d.id, { passcode: null })).status).toBe(200);
      expect(await onB(`${d.page}/p/1`)).toBe(200);
    }
  });

  it("ends every URL at once when the project is unpublished or deleted", async () => {
    const unpublished = await deliveryHeldByB("Unpublished");
    const deleted = await deliveryHeldByB("Deleted");
    expect((await request(a.url).delete(`/api/projects/${unpublished.id}/publish`).set(auth())).status).toBe(200);
    // The link stays the gallery's: its page and its files say it is being updated (503); none is served.
    for (const url of [unpublished.page, `${unpublished.page}/p/1`, `${unpublished.page}/t/2`])
      expect(await onB(url), url).toBe(503);
    expect((await request(a.url).delete(`/api/projects/${deleted.id}`).set(auth())).status).toBe(204);
    for (const url of [deleted.page, `${deleted.page}/p/1`, `${deleted.page}/t/2`])
      expect(await onB(url), url).toBe(404);
  });

  it("shows a photo deleted or renamed through A (unpublished, changed, published again) on B's next answer", async () => {
    const d = await deliveryHeldByB("Edited");
    expect((await request(a.url).delete(`/api/projects/${d.id}/publish`).set(auth())).status).toBe(200);
    expect((await request(a.url).delete(`/api/attachments/${d.photoIds[1]}`).set(auth())).status).toBe(204);
    const renamed = await request(a.url)
      .patch(`/api/attachments/${d.photoIds[0]}`)
      .set(auth())
      .send({ originalName: "renamed.jpg" });
    expect(renamed.status).toBe(200);
    const page = await publishThroughA(d.id);
    expect(await onB(`${page}/p/3`)).toBe(404);
    expect(await onB(`${page}/p/2`)).toBe(200);
    const download = await request(b.url).get(`${page}/p/1/download`);
    expect(download.headers["content-disposition"]).toBe("attachment; filename=renamed.jpg");
    expect((await request(b.url).get(page)).text).toContain("2 photos");
  });
});

describe("the studio's branding and a cover, changed through A", () => {
  it("show on B's very next page, though B holds the page's studio and link in memory", async () => {
    const d = await deliveryHeldByB("Branded");
    expect((await request(b.url).get(d.page)).text).toContain('<div class="cover"><img src="v/1"');
    const saved = await request(a.url)
      .put("/api/studio/settings")
      .set(auth())
      .send({ name: "Two Process Studio", accentColor: "#ffd43b" });
    expect(saved.status).toBe(200);
    const page = (await request(b.url).get(d.page)).text;
    expect(page).toContain("<span>Two Process Studio</span>");
    expect(page).toContain("--accent:#ffd43b;--on-accent:#000000");
    expect(
      (await request(a.url).put(`/api/projects/${d.id}/cover`).set(auth()).send({ attachmentId: d.photoIds[2] }))
        .status,
    ).toBe(200);
    expect((await request(b.url).get(d.page)).text).toContain('<div class="cover"><img src="v/3"');
  });
});
