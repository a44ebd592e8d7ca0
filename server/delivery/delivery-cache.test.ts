import { describe, expect, it } from "vitest";
import { appWithUser } from "../test/app-with-user";
import { isPostgresUrl } from "../db/dialect";
import request from "supertest";
import { DeliveryCache, deliveryCache } from "./delivery-cache";
import { publishDelivery } from "./test-fixtures";

const made = appWithUser();
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("the delivery cache's link loads", () => {
  it("never answers a request made after a change with a read begun before it", async () => {
    const { db, events } = made.t.ctx;
    const d = await publishDelivery(made.t, made.user);
    const cache = new DeliveryCache(db, events);
    // sqlite's one connection is held, so the reads and the write below run in the order they were
    // asked: the first read sees the project published. PostgreSQL's reads do not queue behind it.
    const ordered = !isPostgresUrl(made.t.ctx.config.databaseUrl);
    const hold = await db.transaction();
    const before = cache.link(d.token);
    await settle();
    const unpublish = db("projects").where({ id: d.id }).update({ publish_status: "draft" });
    const unpublished = unpublish.then(() => undefined);
    await settle();
    // Announced while the first read is still out (as another process's commit can be).
    events.resourceChanged({ resource: "projects", type: "updated", ids: [d.id] });
    const after = cache.link(d.token);
    await settle();
    await hold.commit();
    await unpublished;
    if (ordered) expect((await before)?.projectId).toBe(d.id);
    expect(await after).toBeUndefined();
    expect(await cache.link(d.token)).toBeUndefined();
  });
});

describe("a link's lookup by its ZIP's path", () => {
  it("uses the projects' index on it, not a scan of every project", async () => {
    const { db, config } = made.t.ctx;
    if (isPostgresUrl(config.databaseUrl)) {
      const indexes = await db("pg_indexes").where({ tablename: "projects" }).pluck("indexdef");
      expect(indexes.some((def: string) => def.includes("(published_zip_path)"))).toBe(true);
      return;
    }
    const query = db("projects").where({ published_zip_path: "published/x.zip" }).first("id").toSQL().toNative();
    const plan = (await db.raw(`EXPLAIN QUERY PLAN ${query.sql}`, query.bindings)) as Array<{ detail: string }>;
    expect(plan.map((step) => step.detail).join("\n")).toContain("projects_published_zip_path_index");
  });
});

describe("a kept link's language", () => {
  it("is the project's, and a change of it is seen by the next page, not a kept copy", async () => {
    const d = await publishDelivery(made.t, made.user);
    const cache = deliveryCache(made.t.ctx);
    const page = async () => /<html lang="([^"]+)"/.exec((await request(made.t.app).get(d.page)).text)?.[1];
    expect(await page()).toBe("en");
    expect((await cache.link(d.token))?.language).toBeNull();
    await request(made.t.app)
      .put(`/api/projects/${d.id}/delivery`)
      .set(made.user.auth)
      .send({ language: "de" })
      .expect(200);
    expect((await cache.link(d.token))?.language).toBe("de");
    expect(await page()).toBe("de");
  });
});
