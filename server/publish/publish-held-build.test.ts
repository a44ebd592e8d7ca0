import request from "supertest";
import { describe, expect, it } from "vitest";
import { appWithUser } from "../test/app-with-user";
import { RENDITION_IDLE_MS } from "../attachments/rendition-queue";
import { renditionQueue } from "../attachments/renditions.service";
import { insertAttachmentRow, insertProjectRow } from "../test/rows";
import { publishedKeys } from "../test/stored-files";
import { addSlowAttachment, projectRow, recordPublishEvents, until } from "./test-fixtures";
import { publishQueue } from "./publish-job";

// Builds held back by a named pipe in UPLOADS_DIR, so they are caught while they run: on the
// folders only (object storage has no pipe; publish-storage.test.ts cancels a build there).
const made = appWithUser();

const publish = (id: number) => request(made.t.app).post(`/api/projects/${id}/publish`).set(made.user.auth);
const unpublish = (id: number) => request(made.t.app).delete(`/api/projects/${id}/publish`).set(made.user.auth);

describe("a build still running", () => {
  it("holds background renders until it has ended, as an upload does", async () => {
    const id = await insertProjectRow(made.t.ctx);
    const other = await insertAttachmentRow(made.t.ctx, await insertProjectRow(made.t.ctx), { size: 10 });
    const pipe = await addSlowAttachment(made.t.ctx, id, "slow.jpg", 1000);
    const events = recordPublishEvents(made.t.ctx, id);
    const queue = renditionQueue(made.t.ctx);
    try {
      expect((await publish(id)).status).toBe(202);
      await events.next("publish_started");
      queue.add("thumbnail", [other]);
      // Every idle render the queue could have set up by now would have started before this later
      // timer: its idle timers wait at most RENDITION_IDLE_MS.
      await new Promise((r) => setTimeout(r, RENDITION_IDLE_MS + 1));
      expect(queue.waitingOf("thumbnail")).toBe(1);
    } finally {
      await pipe.finish();
      await events.next("publish_completed");
    }
    await until(
      async () => queue.waitingOf("thumbnail"),
      (waiting) => waiting === 0,
    );
  });

  it("refuses a project that is still publishing with 409", async () => {
    const id = await insertProjectRow(made.t.ctx);
    const pipe = await addSlowAttachment(made.t.ctx, id, "slow.jpg", 1000);
    expect((await publish(id)).status).toBe(202);
    try {
      const res = await publish(id);
      expect(res.status).toBe(409);
      expect(res.body.message).toBe("Project is already published");
    } finally {
      const events = recordPublishEvents(made.t.ctx, id);
      await pipe.finish();
      await events.next("publish_completed");
    }
  });

  it("cancels a running build: no partial file, the project is a draft, and the build never completes", async () => {
    const id = await insertProjectRow(made.t.ctx);
    const pipe = await addSlowAttachment(made.t.ctx, id, "big.jpg", 8 * 1024 * 1024);
    const events = recordPublishEvents(made.t.ctx, id);
    const before = await publishedKeys(made.t.ctx);
    try {
      expect((await publish(id)).status).toBe(202);
      await pipe.feed(2 * 1024 * 1024);
      await until(
        async () => (await publishedKeys(made.t.ctx)).filter((f) => f.endsWith(".part")),
        (parts) => parts.length === 1,
      );

      const res = await unpublish(id);

      expect(res.status).toBe(200);
      expect(res.body.publishStatus).toBe("draft");
      expect(await publishedKeys(made.t.ctx)).toEqual(before);
      expect(await projectRow(made.t.ctx, id)).toMatchObject({
        publish_status: "draft",
        published_zip_path: null,
        publish_error: null,
      });
      // The cancelled build has ended: whatever it would still announce, it has announced.
      await publishQueue(made.t.ctx).idle();
      const types = events.events.map((e) => e.type);
      expect(types[0]).toBe("publish_started");
      expect(types).not.toContain("publish_completed");
      expect(types).not.toContain("publish_failed");
    } finally {
      pipe.release();
    }
  });
});
