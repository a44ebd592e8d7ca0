import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import request from "supertest";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, type SessionBody } from "../auth/auth-test-helpers";
import { dataFolders, memoryOf, startAppProcess, type AppProcess } from "../test/app-process";

const MB = 1024 * 1024;
let dir: string;
let server: AppProcess;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-upload-memory-"));
  server = await startAppProcess({
    DATABASE_URL: path.join(dir, "db.sqlite3"),
    MAX_UPLOAD_BYTES: String(200 * MB),
    ...dataFolders(dir),
  });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A 50-megapixel photo with grain, so it does not compress to nothing. */
async function fiftyMegapixels(progressive: boolean): Promise<Buffer> {
  return sharp({
    create: {
      width: 8660,
      height: 5773,
      channels: 3,
      background: "#808080",
      noise: { type: "gaussian", mean: 128, sigma: 30 },
    },
  })
    .jpeg({ quality: 85, progressive })
    .toBuffer();
}

describe("memory while decoding uploads", () => {
  it("keeps the server under 600 MB with three 50-megapixel JPEGs (baseline and progressive) uploaded at once", async () => {
    const admin = (
      await request(server.url).post("/api/auth/signup").send({ email: "boss@studio.test", password: "secret123" })
    ).body as SessionBody;
    const project = await request(server.url)
      .post("/api/projects")
      .set(bearer(admin.accessToken))
      .send({ name: "Big" });
    const photos = [await fiftyMegapixels(false), await fiftyMegapixels(true), await fiftyMegapixels(true)];
    const answers = await Promise.all(
      photos.map((photo, i) =>
        request(server.url)
          .post(`/api/attachments/projects/${project.body.id}/upload`)
          .set(bearer(admin.accessToken))
          .attach("file", photo, `big-${i}.jpg`),
      ),
    );
    expect(answers.map((res) => res.status)).toEqual([201, 201, 201]);
    const { peak } = memoryOf(server.pid);
    console.log(`server peak RSS with three 50 MP uploads at once: ${Math.round(peak / MB)} MB`);
    expect(peak).toBeLessThan(600 * MB);
  }, 120_000);
});
