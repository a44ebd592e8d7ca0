import crypto from "node:crypto";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { cookiesOf, locate, publishDelivery, type PublishedDelivery } from "../delivery/test-fixtures";
import { positions, visitorOf } from "./test-fixtures";
import { FAVOURITE_LIMITS } from "./favourite-limits";

let t: TestApp;
let staff: TestUser;
let d: PublishedDelivery;
let address = 0;
/** A client address no other test has used, so each test starts with whole budgets. */
const nextIp = () => `203.0.113.${++address}`;

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: "1" });
  staff = await createUser(t.ctx);
  d = await publishDelivery(t, staff, { name: "Lima Wedding", photoNames: ["a.jpg", "b.jpg", "c.jpg", "d.jpg"] });
});
afterAll(async () => {
  await t.close();
});

const settings = (id: number, body: object) =>
  request(t.app).put(`/api/projects/${id}/delivery`).set(staff.auth).send(body);

describe("a visitor of the delivery page", () => {
  it("has no list until they give a name and e-mail, and cannot mark a photo before", async () => {
    const v = visitorOf(t, d.token, nextIp());
    const res = await v.list().expect(200);
    expect(res.body).toEqual({ limit: null, visitor: null, sent: false, favourites: [] });
    expect(res.headers["cache-control"]).toBe("no-store");
    const refused = await v.mark(1).expect(403);
    expect(refused.body.message).toBe("Give your name and e-mail first");
    await v.unmark(1).expect(403);
    await v.submit().expect(403);
  });

  it("is remembered by an HttpOnly, SameSite=Lax cookie for this link only, whose key the database keeps as a hash", async () => {
    const v = visitorOf(t, d.token, nextIp());
    const res = await v.join("Ana Lima", "  ana@lima.test ");
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ visitor: { name: "Ana Lima", email: "ana@lima.test" } });
    const [cookie] = res.headers["set-cookie"] as unknown as string[];
    expect(cookie).toMatch(/^photodrop_visitor=[A-Za-z0-9_-]{43};/);
    expect(cookie).toContain(`Path=/d/${d.token}`);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).not.toMatch(/Secure/);
    const key = /^photodrop_visitor=([^;]+)/.exec(cookie)![1];
    const row = await t.ctx.db("favourite_visitors").where({ email: "ana@lima.test" }).first();
    expect(row.key_hash).toBe(crypto.createHash("sha256").update(key).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(key);
    expect((await v.list()).body.visitor).toEqual({ name: "Ana Lima", email: "ana@lima.test" });

    // Asked again with the cookie: the same visitor, with a corrected name; no second cookie.
    const again = await v.join("Ana M. Lima", "ana@lima.test");
    expect(again.status).toBe(200);
    expect(again.headers["set-cookie"]).toBeUndefined();
    expect(await t.ctx.db("favourite_visitors").where({ email: "ana@lima.test" })).toHaveLength(1);
  });

  it("renews the cookie when the list is read, so it lives as long as the link does now", async () => {
    const p = await publishDelivery(t, staff, { name: "Moving expiry" });
    const day = 24 * 3600 * 1000;
    const first = new Date(Date.now() + 10 * day).toISOString();
    await settings(p.id, { expiresAt: first }).expect(200);
    const v = visitorOf(t, p.token, nextIp());
    const expiresOf = (res: request.Response) => {
      const [cookie] = (res.headers["set-cookie"] as unknown as string[] | undefined) ?? [];
      return cookie && Date.parse(/Expires=([^;]+)/.exec(cookie)![1]);
    };
    expect(expiresOf(await v.join())).toBe(Math.floor(Date.parse(first) / 1000) * 1000);
    const later = new Date(Date.now() + 40 * day).toISOString();
    await settings(p.id, { expiresAt: later }).expect(200);
    expect(expiresOf(await v.list().expect(200))).toBe(Math.floor(Date.parse(later) / 1000) * 1000);
    // Nobody yet, no cookie.
    expect(expiresOf(await visitorOf(t, p.token, nextIp()).list().expect(200))).toBeUndefined();
  });

  it("marks the cookie Secure on an HTTPS request", async () => {
    const res = await request(t.app)
      .post(`/d/${d.token}/favourites/visitor`)
      .set("X-Forwarded-For", nextIp())
      .set("X-Forwarded-Proto", "https")
      .send({ name: "Ana", email: "ana@lima.test" })
      .expect(201);
    expect((res.headers["set-cookie"] as unknown as string[])[0]).toMatch(/; Secure/);
  });

  it("refuses names, e-mails and comments that are empty, too long, on several lines or HTML", async () => {
    const v = visitorOf(t, d.token, nextIp());
    const before = await t.ctx.db("favourite_visitors").count({ n: "*" }).first();
    const refused = async (name: unknown, email: unknown, field: string, message: string) => {
      const res = await request(t.app)
        .post(`/d/${d.token}/favourites/visitor`)
        .set("X-Forwarded-For", nextIp())
        .send({ name, email });
      expect(res.status, `${String(name)} ${String(email)}`).toBe(400);
      expect(res.body.errors[field]).toBe(message);
    };
    await refused("  ", "ana@lima.test", "name", "Your name is required");
    await refused(undefined, "ana@lima.test", "name", "Your name is required");
    await refused("x".repeat(101), "ana@lima.test", "name", "Your name must be at most 100 characters");
    await refused(
      "Ana\nBcc: x@y.test",
      "ana@lima.test",
      "name",
      "Your name must be on one line, without control characters",
    );
    await refused("Ana\u0007", "ana@lima.test", "name", "Your name must be on one line, without control characters");
    await refused(
      "Ana\u202Eetihw",
      "ana@lima.test",
      "name",
      "Your name must be on one line, without control characters",
    );
    await refused("<b>Ana</b>", "ana@lima.test", "name", "Use plain text on one line, without < or >");
    await refused("Ana", "ana", "email", "Invalid email format");
    await refused("Ana", "ana@lima.test\r\nBcc: x@y.test", "email", "Invalid email format");
    await refused("Ana", "Ana <ana@lima.test>", "email", "Invalid email format");
    await refused("Ana", `${"a".repeat(320)}@lima.test`, "email", "Invalid email format");
    expect(await t.ctx.db("favourite_visitors").count({ n: "*" }).first()).toEqual(before);

    await v.join();
    const comment = async (text: unknown, message: string) => {
      const res = await v.mark(1, text as string);
      expect(res.status, String(text)).toBe(400);
      expect(res.body.errors.comment).toBe(message);
    };
    await comment("x".repeat(201), "A comment must be at most 200 characters");
    await comment("line one\nline two", "The comment must be on one line, without control characters");
    await comment("<img src=x onerror=alert(1)>", "Use plain text on one line, without < or >");
    await comment(42, "The comment must be text");
    expect((await v.list()).body.favourites).toEqual([]);
    const malformed = request(t.app).put(`/d/${d.token}/favourites/1`).set("Cookie", v.cookie).type("json");
    expect((await malformed.send("{")).status).toBe(400);
  });

  it("marks and unmarks photos by their position, with an optional one-line comment", async () => {
    const v = visitorOf(t, d.token, nextIp());
    await v.join();
    expect((await v.mark(3).expect(200)).body).toEqual({ n: 3, comment: null, count: 1, sent: false });
    expect((await v.mark(1, "  Brighter, please ").expect(200)).body).toEqual({
      n: 1,
      comment: "Brighter, please",
      count: 2,
      sent: false,
    });
    // Marking again keeps the comment; a blank comment removes it.
    expect((await v.mark(1).expect(200)).body.comment).toBe("Brighter, please");
    const list = await v.list().expect(200);
    expect(list.body.favourites).toEqual([
      { n: 1, name: "a.jpg", ratio: null, comment: "Brighter, please" },
      { n: 3, name: "c.jpg", ratio: null, comment: null },
    ]);
    expect((await v.mark(1, "").expect(200)).body.comment).toBeNull();
    expect((await v.unmark(3).expect(200)).body).toEqual({ count: 1, sent: false });
    expect((await v.unmark(3).expect(200)).body).toEqual({ count: 1, sent: false });
    expect(positions(await v.list())).toEqual([1]);
    for (const n of ["5", "0", "abc", "1e3", "-1"]) await v.mark(n).expect(404);
  });

  it("answers 404 for a photo deleted meanwhile by another process, and stores nothing", async () => {
    const other = await publishDelivery(t, staff, { name: "Gone Photo", photoNames: ["x.jpg", "y.jpg"] });
    const v = visitorOf(t, other.token, nextIp());
    await v.join();
    await v.mark(1).expect(200); // this process now keeps the link's photos in memory
    // Another process deleted the second photo; its notice has not reached this one yet.
    const [, gone] = await t.ctx.db("attachments").where({ project_id: other.id }).orderBy("id");
    await t.ctx.db("attachments").where({ id: gone.id }).delete();
    expect((await v.mark(2).expect(404)).body.message).toBe("Photo not found");
    expect(await t.ctx.db("favourites").where({ attachment_id: gone.id })).toEqual([]);
    expect(positions(await v.list())).toEqual([1]);
  });

  it("keeps each visitor's list their own: no one sees or changes another's", async () => {
    const ana = visitorOf(t, d.token, nextIp());
    const luis = visitorOf(t, d.token, nextIp());
    await ana.join("Ana", "ana@lima.test");
    await luis.join("Luís", "luis@lima.test");
    await ana.mark(1, "For the album");
    await ana.mark(2);
    await luis.mark(4);
    await luis.unmark(1);
    const anas = await ana.list();
    expect(positions(anas)).toEqual([1, 2]);
    expect(anas.body.visitor.name).toBe("Ana");
    const luiss = await luis.list();
    expect(positions(luiss)).toEqual([4]);
    expect(JSON.stringify(luiss.body)).not.toMatch(/Ana|For the album/);
    // The same e-mail in another browser is another visitor: an e-mail opens nobody's list.
    const other = visitorOf(t, d.token, nextIp());
    await other.join("Ana", "ana@lima.test");
    expect((await other.list()).body.favourites).toEqual([]);
    // A forged key opens nothing.
    const forged = visitorOf(t, d.token, nextIp(), `photodrop_visitor=${crypto.randomBytes(32).toString("base64url")}`);
    expect((await forged.list()).body.visitor).toBeNull();
  });

  it("stops a visitor at the project's limit with a clear message, also for photos marked at once", async () => {
    const p = await publishDelivery(t, staff, { name: "Limited", photoNames: ["1.jpg", "2.jpg", "3.jpg", "4.jpg"] });
    expect((await settings(p.id, { favouritesLimit: 2 })).body.delivery.favouritesLimit).toBe(2);
    const v = visitorOf(t, p.token, nextIp());
    await v.join();
    expect((await v.list()).body.limit).toBe(2);
    await v.mark(1).expect(200);
    const results = await Promise.all([v.mark(2), v.mark(3), v.mark(4)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const full = results.find((r) => r.status === 409)!;
    expect(full.body.message).toBe("You can choose up to 2 photos");
    expect(positions(await v.list())).toHaveLength(2);
    // A comment on a photo already chosen is still welcome at the limit.
    await v.mark(1, "Crop tighter").expect(200);
    await v.unmark(1).expect(200);
    await v.mark(4).expect(200);

    for (const bad of [0, -1, 1.5, "3", 10_001])
      expect((await settings(p.id, { favouritesLimit: bad })).status, String(bad)).toBe(400);
    expect((await settings(p.id, { favouritesLimit: null })).body.delivery.favouritesLimit).toBeNull();
    await v.mark(1).expect(200);
  });

  it("takes a comment and an unmark of the same photo at once without failing either", async () => {
    const p = await publishDelivery(t, staff, { name: "At once", photoNames: ["1.jpg", "2.jpg"] });
    const v = visitorOf(t, p.token, nextIp());
    await v.join();
    for (let round = 0; round < 10; round++) {
      await v.mark(1).expect(200);
      const answers = await Promise.all([v.mark(1, `Round ${round}`), v.unmark(1), v.mark(2, "Keep")]);
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    }
  });

  it("sends the list (again after a change) and says whether it is sent as it stands", async () => {
    const v = visitorOf(t, d.token, nextIp());
    await v.join();
    const empty = await v.submit().expect(409);
    expect(empty.body.message).toBe("Choose at least one photo first");
    await v.mark(2);
    expect((await v.submit().expect(200)).body).toEqual({ count: 1, sent: true });
    expect((await v.list()).body.sent).toBe(true);
    expect((await v.mark(2)).body.sent).toBe(true);
    expect((await v.mark(3)).body.sent).toBe(false);
    expect((await v.list()).body.sent).toBe(false);
    expect((await v.submit().expect(200)).body).toEqual({ count: 2, sent: true });
  });
});

describe("every favourites route", () => {
  const routes = (v: ReturnType<typeof visitorOf>) => [
    () => v.list(),
    () => v.mark(1),
    () => v.unmark(1),
    () => v.submit(),
    async () => v.join(),
  ];

  it("answers 404 for an unknown or malformed link", async () => {
    for (const token of ["A".repeat(32), "short", "%E0%A4%A"]) {
      const v = visitorOf(t, token, nextIp());
      for (const call of routes(v)) expect([404, 400]).toContain((await call()).status);
    }
  });

  it("needs the passcode's cookie (401), and works with it", async () => {
    const p = await publishDelivery(t, staff, { name: "Locked" });
    await settings(p.id, { passcode: "garden-24" }).expect(200);
    const v = visitorOf(t, p.token, nextIp());
    for (const call of routes(v)) {
      const res = await call();
      expect(res.status).toBe(401);
      expect(res.body.message).toBe("Passcode required");
    }
    const unlocked = await request(t.app).post(`/d/${p.token}/unlock`).type("form").send({ passcode: "garden-24" });
    v.cookie = cookiesOf(unlocked);
    expect((await v.join()).status).toBe(201);
    await v.mark(1).expect(200);
    expect(positions(await v.list())).toEqual([1]);
    // A new passcode ends the old cookie's access, for favourites as for photos.
    await settings(p.id, { passcode: "orchard-25" }).expect(200);
    await v.list().expect(401);
  });

  it("answers 410 past the link's expiry, and keeps the lists for the studio", async () => {
    const p = await publishDelivery(t, staff, { name: "Expiring" });
    const v = visitorOf(t, p.token, nextIp());
    await v.join();
    await v.mark(2);
    await t.ctx
      .db("projects")
      .where({ id: p.id })
      .update({ delivery_expires_at: new Date(Date.now() - 1000).toISOString() });
    t.ctx.events.resourceChanged({ resource: "projects", type: "updated", ids: [p.id] });
    for (const call of routes(v)) {
      const res = await call();
      expect(res.status).toBe(410);
      expect(res.body.message).toBe("This delivery has expired");
    }
    const lists = await request(t.app).get(`/api/projects/${p.id}/favourites`).set(staff.auth).expect(200);
    expect(lists.body.map((l: { count: number }) => l.count)).toEqual([1]);
  });

  it("keeps links apart: a visitor of one link is nobody on another, nor on the same project's regenerated link", async () => {
    const a = await publishDelivery(t, staff, { name: "First" });
    const b = await publishDelivery(t, staff, { name: "Second" });
    const v = visitorOf(t, a.token, nextIp());
    await v.join();
    await v.mark(1);
    const onB = visitorOf(t, b.token, nextIp(), v.cookie);
    expect((await onB.list()).body.visitor).toBeNull();
    await onB.mark(1).expect(403);

    await request(t.app).post(`/api/projects/${a.id}/delivery/regenerate`).set(staff.auth).expect(200);
    const renamed = await locate(t, a.id);
    await v.list().expect(404);
    const onNew = visitorOf(t, renamed.token, nextIp(), v.cookie);
    expect((await onNew.list()).body.visitor).toBeNull();
    const lists = await request(t.app).get(`/api/projects/${a.id}/favourites`).set(staff.auth).expect(200);
    expect(lists.body.map((l: { count: number }) => l.count)).toEqual([1]);
  });

  it("is limited per link and address: new visitors, sends and requests, with Retry-After", async () => {
    const ip = nextIp();
    for (let i = 0; i < FAVOURITE_LIMITS.visitors.limit; i++) {
      expect((await visitorOf(t, d.token, ip).join()).status).toBe(201);
    }
    const refused = await visitorOf(t, d.token, ip).join();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    // Another address, and the same address on another link, are not held back.
    expect((await visitorOf(t, d.token, nextIp()).join()).status).toBe(201);

    const sender = visitorOf(t, d.token, nextIp());
    await sender.join();
    await sender.mark(1);
    for (let i = 0; i < FAVOURITE_LIMITS.submits.limit; i++) await sender.submit().expect(200);
    await sender.submit().expect(429);

    const reader = visitorOf(t, d.token, nextIp());
    for (let i = 0; i < FAVOURITE_LIMITS.requests.limit; i++) await reader.list().expect(200);
    await reader.list().expect(429);
    await visitorOf(t, d.token, nextIp()).list().expect(200);
  });

  it("carries nothing of the studio's staff, ids or other visitors", async () => {
    const v = visitorOf(t, d.token, nextIp());
    await v.join("Mia", "mia@else.test");
    await v.mark(2, "Lovely");
    const body = JSON.stringify((await v.list()).body);
    const photo = await t.ctx.db("attachments").where({ project_id: d.id }).first();
    for (const secret of [staff.email, staff.uid, photo.storage_key, photo.checksum, `"id"`, "ana@lima.test"])
      expect(body, secret).not.toContain(secret);
    await request(t.app).get(`/api/projects/${d.id}/favourites`).expect(401);
  });
});
