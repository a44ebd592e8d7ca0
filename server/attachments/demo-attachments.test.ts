import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/harness";
import { seedDemoAttachments } from "./demo-attachments";
import { sha256, storedThumbnail } from "./test-fixtures";
import { renditionQueue } from "./renditions.service";
import { insertProjectRow } from "../test/rows";
import { readStored, storedUploads } from "../test/stored-files";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("demo photos", () => {
  it("adds 3 to 5 real photos with thumbnails and checksums to each demo project", async () => {
    const projects = [await insertProjectRow(t.ctx), await insertProjectRow(t.ctx), await insertProjectRow(t.ctx)];
    await seedDemoAttachments(t.ctx, projects);

    for (const projectId of projects) {
      const rows = await t.ctx.db("attachments").where({ project_id: projectId });
      expect(rows.length).toBeGreaterThanOrEqual(3);
      expect(rows.length).toBeLessThanOrEqual(5);
      expect(rows.filter((r) => r.mime_type === "image/png")).toHaveLength(1);
      expect(rows.filter((r) => r.mime_type === "image/jpeg").length).toBeGreaterThanOrEqual(2);
      for (const row of rows) {
        const file = await readStored(t.ctx, row.storage_key);
        expect(sha256(file)).toBe(row.checksum);
        expect(file.length).toBe(Number(row.size));
        expect(row.size).toBeGreaterThan(100_000);
        const thumb = await sharp(await storedThumbnail(t.ctx, row.id)).metadata();
        expect(thumb.format).toBe("webp");
      }
    }
    // Previews render in idle time, each through a temp file: once the renders under way have ended, none is left.
    await renditionQueue(t.ctx).close();
    expect((await storedUploads(t.ctx)).filter((f) => f.startsWith(".tmp"))).toEqual([]);
  });
});
