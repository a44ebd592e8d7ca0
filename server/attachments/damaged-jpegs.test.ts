import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import request from "supertest";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { endsWithWholeScan } from "../storage/jpeg-structure";
import { appWithUser } from "../test/app-with-user";
import { insertProjectRow } from "../test/rows";
import { makeNoisyJpeg } from "./test-fixtures";
import { renditionQueue } from "./renditions.service";
import { storedUploads } from "../test/stored-files";

const made = appWithUser();
let projectId: number;
let whole: Buffer;

beforeAll(async () => {
  projectId = await insertProjectRow(made.t.ctx);
  // Photo-sized, so its thumbnail would come from a scaled decode.
  whole = await makeNoisyJpeg(2400, 1800);
  // The photos accepted here would otherwise get thumbnails and previews in idle time, between one
  // test's count of the files and its check that a refused upload added none.
  renditionQueue(made.t.ctx).uploadStarted();
});

/** A copy of the photo with `change` applied. */
function damaged(change: (copy: Buffer) => Buffer | void): Buffer {
  const copy = Buffer.from(whole);
  return change(copy) ?? copy;
}

/** Moves two Huffman codes to length 1: the table still reads, but no decoder can build it. */
function bogusHuffmanTable(copy: Buffer) {
  const counts = copy.indexOf(Buffer.from([0xff, 0xc4])) + 5;
  let longest = counts + 15;
  while (copy[longest] < 2) longest--;
  copy[longest] -= 2;
  copy[counts] += 2;
}

const middle = () => whole.length >> 1;
const DAMAGES: Array<[string, () => Buffer]> = [
  [
    "cut at 60% with an end marker added",
    () => Buffer.concat([whole.subarray(0, whole.length * 0.6), Buffer.from([0xff, 0xd9])]),
  ],
  ["1 KB of random bytes in the middle", () => damaged((c) => void crypto.randomBytes(1024).copy(c, middle()))],
  ["4 KB of zeros in the middle", () => damaged((c) => void c.fill(0, middle(), middle() + 4096))],
  [
    "64 KB taken out of the middle",
    () => Buffer.concat([whole.subarray(0, middle()), whole.subarray(middle() + 65536)]),
  ],
  ["one bit flipped in the middle", () => damaged((c) => void (c[middle()] ^= 0x10))],
  ["a bogus Huffman table", () => damaged(bogusHuffmanTable)],
  [
    "a bogus segment length in the headers",
    () => damaged((c) => void c.writeUInt16BE(1, c.indexOf(Buffer.from([0xff, 0xc4])) + 2)),
  ],
  [
    "its frame header zeroed",
    () =>
      damaged(
        (c) => void c.fill(0, c.indexOf(Buffer.from([0xff, 0xc0])) + 4, c.indexOf(Buffer.from([0xff, 0xc0])) + 12),
      ),
  ],
];

/** What a full decode of the whole file (the check every upload had before) says of it. */
async function fullDecodeAccepts(bytes: Buffer): Promise<boolean> {
  try {
    await sharp(bytes, { failOn: "error", sequentialRead: true }).resize(400).webp().toBuffer();
    return true;
  } catch {
    return false;
  }
}

describe("a JPEG ending in its end marker, accepted without a full decode", () => {
  it.each(DAMAGES)("refuses or accepts one with %s exactly as a full decode would", async (_kind, make) => {
    const bytes = make();
    const expected = await fullDecodeAccepts(bytes);
    const before = await storedUploads(made.t.ctx);
    const res = await request(made.t.app)
      .post(`/api/attachments/projects/${projectId}/upload`)
      .set(made.user.auth)
      .attach("file", bytes, "damaged.jpg");
    if (expected) {
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    } else {
      expect(res.body).toEqual({ statusCode: 415, message: "Image is damaged or incomplete" });
      expect(await storedUploads(made.t.ctx)).toEqual(before);
    }
  });

  it("needs its first rows decoded: a bogus Huffman table passes the structure check and is still refused", async () => {
    const bytes = damaged(bogusHuffmanTable);
    const file = path.join(made.t.dir, "bogus-table.jpg");
    fs.writeFileSync(file, bytes);
    expect(await endsWithWholeScan(file)).toBe(true);
    expect(await fullDecodeAccepts(bytes)).toBe(false);
    const res = await request(made.t.app)
      .post(`/api/attachments/projects/${projectId}/upload`)
      .set(made.user.auth)
      .attach("file", bytes, "bogus-table.jpg");
    expect(res.status).toBe(415);
  });
});
