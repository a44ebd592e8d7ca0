import request from "supertest";
import { describe, expect, it } from "vitest";
import { createTestApp, createUser } from "../test/harness";
import { publishQueue } from "./publish-job";
import { PublishQueue } from "./publish-queue";
import { addPhoto, addSlowAttachment, projectRow, recordPublishEvents, until } from "./test-fixtures";
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
      // The queue starts a build when it is enqueued or a slot frees: the second is waiting, not running.
      expect(publishQueue(q.ctx).waitingCount).toBe(1);
      await until(
        () => events.events.filter((e) => e.type === "publish_started").map((e) => e.projectId),
        (started) => started.length > 0,
      );
      expect(publishQueue(q.ctx).waitingCount).toBe(1);
      expect(events.events.filter((e) => e.type === "publish_started").map((e) => e.projectId)).toEqual([first]);

      await pipe.finish();
      await until(
        () => q.ctx.db("projects").whereIn("id", [first, second]).pluck("publish_status"),
        (s) => s.every((x) => x === "published"),
      );
      const order = events.events.filter((e) => e.type === "publish_started" || e.type === "publish_completed");
      expect(order.map((e) => `${e.type}:${e.projectId}`)).toEqual([
        `publish_started:${first}`,
        `publish_completed:${first}`,
        `publish_started:${second}`,
        `publish_completed:${second}`,
      ]);
    } finally {
      pipe.release();
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
      await until(
        () => projectRow(q.ctx, first),
        (row) => row.publish_status === "published",
      );
      // No build is left running or waiting: the forgotten one would have started by now.
      await publishQueue(q.ctx).idle();
      expect(events.events).toEqual([]);
      expect((await projectRow(q.ctx, second)).publish_status).toBe("draft");
    } finally {
      pipe.release();
      await q.close();
    }
  });

  it("tracks two builds of one project apart: the older one ending leaves the newer one counted and cancellable", async () => {
    const queue = new PublishQueue(2);
    let finishOlder!: () => void;
    queue.enqueue({ projectId: 7, buildId: "older" }, () => new Promise<void>((resolve) => (finishOlder = resolve)));
    let newerAborted = false;
    queue.enqueue(
      { projectId: 7, buildId: "newer" },
      (signal) =>
        new Promise<void>((resolve) => signal.addEventListener("abort", () => ((newerAborted = true), resolve()))),
    );
    expect(queue.size).toBe(2);

    finishOlder();
    await until(
      async () => queue.size,
      (size) => size === 1,
    );
    expect(queue.has(7)).toBe(true);

    await queue.cancel(7);
    expect(newerAborted).toBe(true);
    expect(queue.size).toBe(0);
    expect(queue.has(7)).toBe(false);
  });

  it("cancels one build by its id, leaving a newer build of the same project and its progress alone", async () => {
    const queue = new PublishQueue(2);
    const aborted: string[] = [];
    const build = (buildId: string) =>
      queue.enqueue(
        { projectId: 7, buildId },
        (signal) =>
          new Promise<void>((resolve) => signal.addEventListener("abort", () => (aborted.push(buildId), resolve()))),
      );
    build("older");
    build("newer");
    queue.reportProgress("older", 80);
    queue.reportProgress("newer", 30);

    await queue.cancelBuild("older");

    expect(aborted).toEqual(["older"]);
    expect(queue.size).toBe(1);
    expect(queue.progressOf(7)).toBe(30);
    await queue.cancelAll();
    expect(aborted).toEqual(["older", "newer"]);
    expect(queue.progressOf(7)).toBeUndefined();
  });
});
