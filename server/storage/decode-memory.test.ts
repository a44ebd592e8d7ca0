import request from "supertest";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeInterlacedZeroPng } from "../attachments/test-fixtures";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { insertProjectRow } from "../test/rows";
import { decodeBytes } from "./image-files";
import { Semaphore } from "./semaphore";

const MB = 1024 * 1024;
let t: TestApp;
let user: TestUser;
let projectId: number;

beforeAll(async () => {
  t = await createTestApp({ MAX_UPLOAD_BYTES: String(20 * MB) });
  user = await createUser(t.ctx);
  projectId = await insertProjectRow(t.ctx);
});
afterAll(() => t.close());

describe("decode memory is bounded by bytes", () => {
  it("refuses the 158.8-megapixel 16-bit interlaced PNG bomb with 415 before its memory grows by 100 MB", async () => {
    const bomb = await makeInterlacedZeroPng(12_600, 12_600);
    expect(bomb.length).toBeLessThan(2 * MB);
    const meta = await sharp(bomb).metadata();
    expect(meta).toMatchObject({ width: 12_600, height: 12_600, channels: 4, depth: "ushort", isProgressive: true });
    global.gc?.();
    const idle = process.memoryUsage().rss;
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 2);
    try {
      const res = await request(t.app)
        .post(`/api/attachments/projects/${projectId}/upload`)
        .set(user.auth)
        .attach("file", bomb, "bomb.png");
      expect(res.status).toBe(415);
      expect(res.body).toEqual({ statusCode: 415, message: "Image is too large to process" });
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, process.memoryUsage().rss);
    expect(peak - idle).toBeLessThan(100 * MB);
    expect(await t.ctx.db("attachments").count({ n: "*" }).first()).toMatchObject({ n: 0 });
  });

  it("counts the full frame for progressive and interlaced images and an eighth of each side for baseline JPEGs", () => {
    const base = { width: 8000, height: 6000, channels: 3, depth: "uchar" } as const;
    expect(decodeBytes({ ...base, format: "jpeg", isProgressive: false })).toBe((8000 * 6000 * 3) / 64);
    expect(decodeBytes({ ...base, format: "jpeg", isProgressive: true })).toBe(8000 * 6000 * 3);
    expect(decodeBytes({ ...base, format: "png", channels: 4, depth: "ushort", isProgressive: false })).toBe(
      8000 * 6000 * 8,
    );
  });

  it("counts a baseline JPEG's preview at the scale libjpeg decodes it for that size", () => {
    const photo = (width: number, height: number) =>
      ({ width, height, channels: 3, depth: "uchar", format: "jpeg", isProgressive: false }) as const;
    // 6000 / 2048 is 2.9: sharp halves a shrink of 2 that is the whole shrink, so it decodes in full.
    expect(decodeBytes(photo(6000, 4000), 2048)).toBe(6000 * 4000 * 3);
    expect(decodeBytes(photo(8000, 6000), 2048)).toBe((8000 * 6000 * 3) / 4);
    expect(decodeBytes(photo(12_000, 8000), 2048)).toBe((12_000 * 8000 * 3) / 16);
    expect(decodeBytes(photo(1200, 900), 2048)).toBe(1200 * 900 * 3);
    // A thumbnail of a small photo is decoded at half of each side, not an eighth.
    expect(decodeBytes(photo(1200, 900))).toBe((1200 * 900 * 3) / 4);
  });

  it("passes a 50-megapixel camera JPEG and a 30-megapixel 8-bit RGBA PNG within the default budget", () => {
    const budget = t.ctx.config.maxDecodeBytes;
    expect(
      decodeBytes({ width: 8660, height: 5773, channels: 3, depth: "uchar", format: "jpeg", isProgressive: true }),
    ).toBeLessThanOrEqual(budget);
    expect(
      decodeBytes({ width: 6708, height: 4472, channels: 4, depth: "uchar", format: "png", isProgressive: true }),
    ).toBeLessThanOrEqual(budget);
  });
});

describe("the decode turn-taking", () => {
  it("runs at most its slots at once and every task in the end", async () => {
    const slots = new Semaphore(2);
    let active = 0;
    let most = 0;
    const results = await Promise.all(
      Array.from({ length: 7 }, (_, i) =>
        slots.run(async () => {
          most = Math.max(most, ++active);
          await new Promise((resolve) => setTimeout(resolve, 10));
          active -= 1;
          return i;
        }),
      ),
    );
    expect(most).toBe(2);
    expect(results).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it("keeps the weight of what runs at once within its capacity, in arrival order, and runs an overweight task alone", async () => {
    const budget = new Semaphore(4, 100);
    const running = new Set<string>();
    const seen: string[][] = [];
    const task = (name: string, weight: number) =>
      budget.run(async () => {
        running.add(name);
        seen.push([...running].sort());
        await new Promise((resolve) => setTimeout(resolve, 10));
        running.delete(name);
        return name;
      }, weight);
    const order = await Promise.all([
      task("a60", 60),
      task("b60", 60),
      task("c30", 30),
      task("d150", 150),
      task("e10", 10),
    ]);
    expect(order).toEqual(["a60", "b60", "c30", "d150", "e10"]);
    // b60 waits for a60; c30 joins b60; d150 (over the capacity) runs alone; e10 after it.
    expect(seen).toEqual([["a60"], ["b60"], ["b60", "c30"], ["d150"], ["e10"]]);
  });
});
