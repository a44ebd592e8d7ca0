import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/harness";
import { insertProjectRow } from "../test/rows";
import { publishQueue } from "./publish-job";
import { ABANDONED_MESSAGE, reapAbandonedBuilds, renewLeases } from "./publish-lease";
import { publishProject } from "./publish.service";
import {
  addSlowAttachment,
  buildOfAnotherProcess,
  projectRow,
  publishedFiles,
  recordPublishEvents,
  until,
} from "./test-fixtures";

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ PUBLISH_LEASE_SECONDS: "30" });
});
afterEach(async () => {
  await t.close();
});

const past = () => new Date(Date.now() - 1000);
const zipName = (letter: string) => `${letter.repeat(22)}.zip`;

describe("publish leases", () => {
  it("names the build's ZIP on the row and renews its lease while it builds", async () => {
    const id = await insertProjectRow(t.ctx);
    const pipe = await addSlowAttachment(t.ctx, id, "big.jpg", 64 * 1024);
    try {
      await publishProject(t.ctx, id);
      const claimed = await until(
        () => projectRow(t.ctx, id),
        (row) => row.publish_file !== null,
      );
      expect(new Date(claimed.publish_lease_expires_at).getTime()).toBeGreaterThan(Date.now() + 25_000);
      await pipe.feed(1024);
      await new Promise((resolve) => setTimeout(resolve, 20));
      await renewLeases(t.ctx);
      const renewed = await projectRow(t.ctx, id);
      expect(new Date(renewed.publish_lease_expires_at).getTime()).toBeGreaterThan(
        new Date(claimed.publish_lease_expires_at).getTime(),
      );
      expect(renewed.publish_status).toBe("publishing");
      expect(fs.existsSync(path.join(t.ctx.config.publishedDir, `${claimed.publish_file}.part`))).toBe(true);
      const events = recordPublishEvents(t.ctx, id);
      await pipe.finish();
      await events.next("publish_completed");
      expect(await projectRow(t.ctx, id)).toMatchObject({
        publish_status: "published",
        publish_lease_expires_at: null,
        publish_file: null,
      });
    } finally {
      pipe.release();
    }
  });

  it("fails a build whose lease ran out, removes its partial file and says so; a live lease is left alone", async () => {
    const dead = await buildOfAnotherProcess(t.ctx, past(), "D");
    const live = await buildOfAnotherProcess(t.ctx, new Date(Date.now() + 30_000), "L");
    const events = recordPublishEvents(t.ctx);

    const reaped = await reapAbandonedBuilds(t.ctx);

    expect(reaped.map((b) => b.id)).toEqual([dead]);
    expect(await projectRow(t.ctx, dead)).toMatchObject({
      publish_status: "failed",
      publish_error: ABANDONED_MESSAGE,
      publish_build_id: null,
      publish_lease_expires_at: null,
      publish_file: null,
    });
    expect(events.events).toEqual([{ projectId: dead, type: "publish_failed", data: { error: ABANDONED_MESSAGE } }]);
    expect((await projectRow(t.ctx, live)).publish_status).toBe("publishing");
    expect(publishedFiles(t.ctx)).toEqual([`${zipName("L")}.part`]);
    expect(await reapAbandonedBuilds(t.ctx)).toEqual([]);
  });

  it("removes the web-size ZIP an abandoned build was writing too, and keeps a live build's", async () => {
    await buildOfAnotherProcess(t.ctx, past(), "W", { webSize: true });
    await buildOfAnotherProcess(t.ctx, new Date(Date.now() + 30_000), "V", { webSize: true });
    expect(publishedFiles(t.ctx)).toEqual([
      `${"V".repeat(22)}-web.zip.part`,
      zipName("V"),
      `${"W".repeat(22)}-web.zip.part`,
      zipName("W"),
    ]);

    await reapAbandonedBuilds(t.ctx);

    expect(publishedFiles(t.ctx)).toEqual([`${"V".repeat(22)}-web.zip.part`, zipName("V")]);
  });

  it("never lets a build that lost its lease publish, and stops it at its next renewal", async () => {
    const id = await insertProjectRow(t.ctx);
    const pipe = await addSlowAttachment(t.ctx, id, "big.jpg", 64 * 1024);
    const events = recordPublishEvents(t.ctx, id);
    try {
      await publishProject(t.ctx, id);
      await until(
        () => projectRow(t.ctx, id),
        (row) => row.publish_file !== null,
      );
      await pipe.feed(1024);
      // Another process, seeing the lease expired (this one seemed dead), fails the build.
      await t.ctx
        .db("projects")
        .where({ id })
        .update({ publish_lease_expires_at: new Date(Date.now() - 1_000).toISOString() });
      expect((await reapAbandonedBuilds(t.ctx)).map((b) => b.id)).toEqual([id]);

      await renewLeases(t.ctx);
      await until(
        () => publishQueue(t.ctx).has(id),
        (has) => !has,
      );
      expect(await projectRow(t.ctx, id)).toMatchObject({ publish_status: "failed", published_zip_path: null });
      expect(publishedFiles(t.ctx)).toEqual([]);
      expect(events.events.map((e) => e.type)).not.toContain("publish_completed");
    } finally {
      pipe.release();
    }
  });
});
