import path from "node:path";
import { describe, expect, it } from "vitest";
import { createTestApp } from "../test/harness";
import { insertProjectRow } from "../test/rows";
import { publishQueue } from "./publish-job";
import { claimForPublishing, markFailed, markPublished } from "./publish.repository";
import { leaseUntil } from "./publish-lease";
import { publishProject, unpublishProject } from "./publish.service";
import {
  addPhoto,
  addSlowAttachment,
  projectRow,
  publishedFiles,
  readZip,
  recordPublishEvents,
  until,
} from "./test-fixtures";

// The service is called directly: both calls start in the same tick, so the publish's claim is
// the first statement to run and the unpublish lands between that claim and whatever follows it.
describe("publish and unpublish of one project at nearly the same moment", () => {
  it("an unpublish sent right behind a publish leaves a draft, no build in the queue and no file", async () => {
    const t = await createTestApp({ PUBLISH_CONCURRENCY: "1" });
    const queue = publishQueue(t.ctx);
    const id = await insertProjectRow(t.ctx);
    const pipe = await addSlowAttachment(t.ctx, id, "big.jpg", 4096);
    const events = recordPublishEvents(t.ctx, id);
    try {
      const [published, unpublished] = await Promise.all([publishProject(t.ctx, id), unpublishProject(t.ctx, id)]);

      expect(published.publishStatus).toBe("publishing");
      expect(unpublished.publishStatus).toBe("draft");
      expect(queue.has(id)).toBe(false);
      expect(queue.size).toBe(0);
      expect(await projectRow(t.ctx, id)).toMatchObject({
        publish_status: "draft",
        published_zip_path: null,
        publish_build_id: null,
      });
      expect(publishedFiles(t.ctx)).toEqual([]);

      // The only build slot is free: another project publishes at once.
      const other = await insertProjectRow(t.ctx);
      await addPhoto(t.ctx, other, "other.jpg");
      const otherEvents = recordPublishEvents(t.ctx, other);
      await publishProject(t.ctx, other);
      await otherEvents.next("publish_completed", 5_000);
      await queue.idle();
      expect((await projectRow(t.ctx, id)).publish_status).toBe("draft");
      expect(publishedFiles(t.ctx)).toEqual([path.basename((await projectRow(t.ctx, other)).published_zip_path)]);
      expect(events.events.map((e) => e.type)).not.toContain("publish_completed");
      expect(events.events.map((e) => e.type)).not.toContain("publish_failed");
    } finally {
      await pipe.finishIfRead();
      await t.close();
    }
  });

  it("publish, unpublish, publish again ends published with one ZIP of the attachments the project has now", async () => {
    const t = await createTestApp({ PUBLISH_CONCURRENCY: "1" });
    const queue = publishQueue(t.ctx);
    const id = await insertProjectRow(t.ctx);
    const first = await addPhoto(t.ctx, id, "first.jpg");
    const pipe = await addSlowAttachment(t.ctx, id, "dropped.jpg", 4096);
    try {
      await Promise.all([publishProject(t.ctx, id), unpublishProject(t.ctx, id)]);
      // Changed while a draft: one attachment goes, one comes.
      await t.ctx.db("attachments").where({ project_id: id, original_name: "dropped.jpg" }).delete();
      const second = await addPhoto(t.ctx, id, "second.jpg");

      const again = await publishProject(t.ctx, id);
      expect(again.publishStatus).toBe("publishing");
      // A build of the first publish still reading this file (a stale one) may finish now.
      await pipe.finishIfRead(1_000);
      await until(
        () => projectRow(t.ctx, id),
        (row) => row.publish_status !== "publishing",
      );
      await queue.idle();

      const row = await projectRow(t.ctx, id);
      expect(row).toMatchObject({ publish_status: "published", publish_error: null });
      const zipName = path.basename(row.published_zip_path);
      expect(publishedFiles(t.ctx)).toEqual([zipName]);
      const entries = await readZip(path.join(t.ctx.config.publishedDir, zipName));
      expect(entries.map((e) => e.name)).toEqual(["first.jpg", "second.jpg"]);
      expect(entries[0].content.equals(first.bytes)).toBe(true);
      expect(entries[1].content.equals(second.bytes)).toBe(true);
      expect(queue.size).toBe(0);
      expect(queue.has(id)).toBe(false);
    } finally {
      await pipe.finishIfRead();
      await t.close();
    }
  });

  it("a build that is no longer the project's current one can neither publish nor fail it", async () => {
    const t = await createTestApp();
    try {
      const id = await insertProjectRow(t.ctx);
      await addPhoto(t.ctx, id, "one.jpg");
      expect(await claimForPublishing(t.ctx.db, id, "current-build", leaseUntil(t.ctx))).toBe(true);
      const claimed = await projectRow(t.ctx, id);
      expect(claimed).toMatchObject({ publish_status: "publishing", publish_build_id: "current-build" });

      let moved = 0;
      const putInPlace = async () => void moved++;
      expect(
        await markPublished(t.ctx.db, id, "stale-build", { path: "published/stale.zip", size: 1 }, putInPlace),
      ).toBe(false);
      expect(moved).toBe(0);
      expect(await markFailed(t.ctx.db, id, "stale-build", "Could not build the ZIP")).toBe(false);
      expect(await projectRow(t.ctx, id)).toEqual(claimed);

      expect(
        await markPublished(t.ctx.db, id, "current-build", { path: "published/current.zip", size: 1 }, putInPlace),
      ).toBe(true);
      expect(moved).toBe(1);
      expect(await projectRow(t.ctx, id)).toMatchObject({
        publish_status: "published",
        published_zip_path: "published/current.zip",
        publish_build_id: null,
      });
    } finally {
      await t.close();
    }
  });
});
