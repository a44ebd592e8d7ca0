import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/harness";
import { insertProjectRow } from "../test/rows";
import { INTERRUPTED_MESSAGE, recoverInterruptedPublishes } from "./recovery";
import { addPhoto, projectRow, publishedFiles } from "./test-fixtures";

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

/** A build another process claimed, with its lease running out at `leaseExpiresAt` and its partial file on disk. */
async function buildOfAnotherProcess(leaseExpiresAt: Date, letter: string) {
  const id = await insertProjectRow(t.ctx, { name: `Theirs ${letter}` });
  await addPhoto(t.ctx, id, "one.jpg");
  const zip = `${letter.repeat(22)}.zip`;
  await t.ctx
    .db("projects")
    .where({ id })
    .update({
      publish_status: "publishing",
      publish_build_id: `their-build-${letter}`,
      publish_lease_expires_at: leaseExpiresAt.toISOString(),
      publish_file: zip,
    });
  fs.writeFileSync(path.join(t.ctx.config.publishedDir, `${zip}.part`), "partial");
  return id;
}

describe("recovery at start with PostgreSQL, where other processes may be building", () => {
  it("fails only builds whose lease ran out and keeps the partial file of a live one", async () => {
    const live = await buildOfAnotherProcess(new Date(Date.now() + 30_000), "L");
    const dead = await buildOfAnotherProcess(new Date(Date.now() - 1_000), "D");

    await recoverInterruptedPublishes(t.ctx);

    expect((await projectRow(t.ctx, live)).publish_status).toBe("publishing");
    expect(await projectRow(t.ctx, dead)).toMatchObject({
      publish_status: "failed",
      publish_error: INTERRUPTED_MESSAGE,
    });
    expect(publishedFiles(t.ctx)).toEqual([`${"L".repeat(22)}.zip.part`]);
  });
});
