import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeImage, makeNoisyJpeg } from "../attachments/test-fixtures";
import sharp from "sharp";
import { endsWithWholeScan } from "./jpeg-structure";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-jpeg-structure-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let written = 0;
async function scanOf(bytes: Buffer | number[]): Promise<boolean> {
  const file = path.join(dir, `${written++}.jpg`);
  fs.writeFileSync(file, Buffer.from(bytes));
  return endsWithWholeScan(file);
}

const segment = (code: number, body: number[] = [0, 0]) => [0xff, code, 0, body.length + 2, ...body];
const SOI = [0xff, 0xd8];
const EOI = [0xff, 0xd9];
const APP0 = segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0]);
const SOF0 = segment(0xc0, [8, 0, 1, 0, 1, 1, 1, 0x11, 0]);
const SOF2 = segment(0xc2, [8, 0, 1, 0, 1, 1, 1, 0x11, 0]);
const SOS = segment(0xda, [1, 1, 0, 0, 63, 0]);

describe("telling a JPEG whose one scan runs on to its end marker", () => {
  it("answers true for whole baseline JPEGs, small and photo-sized", async () => {
    expect(await scanOf(await makeImage("jpeg"))).toBe(true);
    expect(await scanOf(await makeNoisyJpeg(2400, 1800))).toBe(true);
  });

  it("passes over stuffed bytes, restart markers and fill bytes before the end marker", async () => {
    const data = [0x12, 0xff, 0x00, 0x34, 0xff, 0xd0, 0x56, 0xff, 0xd7, 0x78, 0xff, 0xff, 0xff, 0xd9];
    expect(await scanOf([...SOI, ...APP0, ...SOF0, ...SOS, ...data])).toBe(true);
  });

  it.each([
    ["a file cut short inside its scan", () => makeNoisyJpeg(300, 200).then((b) => b.subarray(0, b.length - 100))],
    ["a file cut short in its headers", () => makeImage("jpeg").then((b) => b.subarray(0, 40))],
    [
      "a progressive JPEG",
      () =>
        sharp({ create: { width: 64, height: 48, channels: 3, background: "#c84" } })
          .jpeg({ progressive: true })
          .toBuffer(),
    ],
  ])("answers false for %s", async (_kind, make) => {
    expect(await scanOf(await make())).toBe(false);
  });

  it.each([
    [
      "a marker inside the scan data that is not its end",
      [...SOI, ...SOF0, ...SOS, 0x12, 0xff, 0xc4, 0x00, 0x02, ...EOI],
    ],
    ["a scan before any frame", [...SOI, ...SOS, 0x12, ...EOI]],
    ["two frames", [...SOI, ...SOF0, ...SOF0, ...SOS, 0x12, ...EOI]],
    ["a progressive frame", [...SOI, ...SOF2, ...SOS, 0x12, ...EOI]],
    ["an end marker before any scan", [...SOI, ...SOF0, ...EOI]],
    ["a segment length under 2", [...SOI, 0xff, 0xe1, 0x00, 0x01, ...SOF0, ...SOS, ...EOI]],
    ["no start marker", [...SOF0, ...SOS, 0x12, ...EOI]],
    ["nothing after the scan header", [...SOI, ...SOF0, ...SOS]],
  ])("answers false for %s", async (_kind, bytes) => {
    expect(await scanOf(bytes)).toBe(false);
  });

  it("reads a stuffed byte and the end marker split across its 1 MiB reads", async () => {
    const head = [...SOI, ...SOF0, ...SOS];
    const chunk = 1024 * 1024;
    // 0xFF the last byte of the first read, its 0x00 the first of the second; the same for the end marker.
    const data = Buffer.alloc(2 * chunk - head.length, 0x11);
    data[chunk - head.length - 1] = 0xff;
    data[chunk - head.length] = 0x00;
    data[data.length - 1] = 0xff;
    expect(await scanOf(Buffer.concat([Buffer.from(head), data, Buffer.from([0xd9])]))).toBe(true);
    expect(await scanOf(Buffer.concat([Buffer.from(head), data, Buffer.from([0xc4])]))).toBe(false);
  });
});
