import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import request from "supertest";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, signUp, type SessionBody } from "../auth/auth-test-helpers";
import { makeInterlacedZeroPng } from "../attachments/test-fixtures";
import { dataFolders, memoryOf, resetPeakMemory, startAppProcess, type AppProcess } from "../test/app-process";

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

let admin: SessionBody;
let projectId: number;

beforeAll(async () => {
  admin = await signUp(server.url, "boss@studio.test");
  projectId = (await request(server.url).post("/api/projects").set(bearer(admin.accessToken)).send({ name: "Big" }))
    .body.id;
});

/**
 * Uploads the files at once, then asks for their thumbnails at once (a proven-whole JPEG's is
 * rendered then, not during its upload), and answers the server's peak RSS meanwhile.
 */
async function peakWhileUploading(files: Array<{ bytes: Buffer; name: string }>) {
  resetPeakMemory(server.pid);
  const answers = await Promise.all(
    files.map(({ bytes, name }) =>
      request(server.url)
        .post(`/api/attachments/projects/${projectId}/upload`)
        .set(bearer(admin.accessToken))
        .attach("file", bytes, name),
    ),
  );
  expect(answers.map((res) => res.status)).toEqual(files.map(() => 201));
  const thumbnails = await Promise.all(answers.map((res) => request(server.url).get(res.body.thumbnailUrl as string)));
  expect(thumbnails.map((res) => [res.status, res.type])).toEqual(files.map(() => [200, "image/webp"]));
  return memoryOf(server.pid).peak;
}

describe("memory while decoding uploads", () => {
  it("keeps the server under 600 MB with three 50-megapixel JPEGs (baseline and progressive) uploaded at once", async () => {
    const photos = [await fiftyMegapixels(false), await fiftyMegapixels(true), await fiftyMegapixels(true)];
    const peak = await peakWhileUploading(photos.map((bytes, i) => ({ bytes, name: `big-${i}.jpg` })));
    console.log(`server peak RSS with three 50 MP uploads at once: ${Math.round(peak / MB)} MB`);
    expect(peak).toBeLessThan(600 * MB);
  }, 120_000);

  it("keeps the server under 600 MB with three interlaced 16-bit PNGs just within the decode budget at once", async () => {
    // 4990 × 4990 × 8 bytes: 199.2 MB each to decode, under the default 200 MB budget.
    const png = await makeInterlacedZeroPng(4990, 4990);
    const peak = await peakWhileUploading([0, 1, 2].map((i) => ({ bytes: png, name: `wide-${i}.png` })));
    console.log(`server peak RSS with three 199 MB-to-decode PNGs at once: ${Math.round(peak / MB)} MB`);
    expect(peak).toBeLessThan(600 * MB);
  }, 120_000);
});
