import request from "supertest";
import { describe, expect, it } from "vitest";
import { createTestApp, createUser } from "../test/harness";
import { cancelAllPublishes } from "./publish.service";
import {
  addPhoto,
  addSlowAttachment,
  projectRow,
  recordPublishEvents,
  until,
} from "./test-fixtures";
import { insertProjectRow } from "../test/rows";

describe("the build queue", () => {
  it("runs at most PUBLISH_CONCURRENCY builds; the next one waits its turn", async () => {
    const q = await createTestApp({ PUBLISH_CONCURRENCY: "1" });
    const user = await createUser(q.ctx);
    const first = await insertProjectRow(q.ctx, { name: "First" });
    const second = await insertProjectRow(q.ctx, { name: "Second" });
    const pipe = await addSlowAttachment(q.ctx, first, "slow.jpg", 4096);
    await addPhoto(q.ctx, second, "quick.jpg");
    const events = recordPublishEvents(q.ctx);
    try {
      expect((await request(q.app).post(`/api/projects/${first}/publish`).set(user.auth)).status).toBe(202);
      const queued = await request(q.app).post(`/api/projects/${second}/publish`).set(user.auth);
      expect(queued.status).toBe(202);
      expect(queued.body.publishStatus).toBe("publishing");
      await new Promise((r) => setTimeout(r, 300));
      expect(events.events.filter((e) => e.type === "publish_started").map((e) => e.projectId)).toEqual([first]);

      await pipe.finish();
      await until(() => q.ctx.db("projects").whereIn("id", [first, second]).pluck("publish_status"), (s) => s.every((x) => x === "published"));
      const order = events.events.filter((e) => e.type === "publish_started" || e.type === "publish_completed");
      expect(order.map((e) => `${e.type}:${e.projectId}`)).toEqual([
        `publish_started:${first}`,
        `publish_completed:${first}`,
        `publish_started:${second}`,
        `publish_completed:${second}`,
      ]);
    } finally {
      pipe.release();
      await cancelAllPublishes(q.ctx);
      await q.close();
    }
  });

  it("forgets a queued build that is unpublished before its turn", async () => {
    const q = await createTestApp({ PUBLISH_CONCURRENCY: "1" });
    const user = await createUser(q.ctx);
    const first = await insertProjectRow(q.ctx);
    const second = await insertProjectRow(q.ctx);
    const pipe = await addSlowAttachment(q.ctx, first, "slow.jpg", 4096);
    await addPhoto(q.ctx, second, "quick.jpg");
    const events = recordPublishEvents(q.ctx, second);
    try {
      await request(q.app).post(`/api/projects/${first}/publish`).set(user.auth);
      await request(q.app).post(`/api/projects/${second}/publish`).set(user.auth);
      const res = await request(q.app).delete(`/api/projects/${second}/publish`).set(user.auth);
      expect(res.body.publishStatus).toBe("draft");
      await pipe.finish();
      await until(() => projectRow(q.ctx, first), (row) => row.publish_status === "published");
      await new Promise((r) => setTimeout(r, 200));
      expect(events.events).toEqual([]);
      expect((await projectRow(q.ctx, second)).publish_status).toBe("draft");
    } finally {
      pipe.release();
      await cancelAllPublishes(q.ctx);
      await q.close();
    }
  });
});
