import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/harness";
import { INTERRUPTED_MESSAGE, recoverInterruptedPublishes } from "./recovery";
import { buildOfAnotherProcess, projectRow, publishedFiles } from "./test-fixtures";

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

describe("recovery at start with PostgreSQL, where other processes may be building", () => {
  it("fails only builds whose lease ran out and keeps the partial file of a live one", async () => {
    const live = await buildOfAnotherProcess(t.ctx, new Date(Date.now() + 30_000), "L");
    const dead = await buildOfAnotherProcess(t.ctx, new Date(Date.now() - 1_000), "D");

    await recoverInterruptedPublishes(t.ctx);

    expect((await projectRow(t.ctx, live)).publish_status).toBe("publishing");
    expect(await projectRow(t.ctx, dead)).toMatchObject({
      publish_status: "failed",
      publish_error: INTERRUPTED_MESSAGE,
    });
    expect(publishedFiles(t.ctx)).toEqual([`${"L".repeat(22)}.zip.part`]);
  });
});
