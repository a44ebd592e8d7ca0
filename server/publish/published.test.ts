import path from "node:path";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { attachmentDisposition, zipFileName } from "./download-name";
import { addPhoto, projectRow, recordPublishEvents } from "./test-fixtures";
import { insertProjectRow } from "../test/rows";
import { publishedKeys, readStored, removeStored, writeStored } from "../test/stored-files";
import { getBinary } from "../test/binary-body";

let t: TestApp;
let staff: TestUser;
let url: string;
let zip: Buffer;

async function publishedProject(name: string): Promise<{ id: number; url: string; key: string }> {
  const id = await insertProjectRow(t.ctx, { name });
  await addPhoto(t.ctx, id, "one.jpg", 120);
  await addPhoto(t.ctx, id, "two.jpg", 120);
  const events = recordPublishEvents(t.ctx, id);
  expect((await request(t.app).post(`/api/projects/${id}/publish`).set(staff.auth)).status).toBe(202);
  await events.next("publish_completed");
  const row = await projectRow(t.ctx, id);
  const base = path.basename(row.published_zip_path);
  return { id, url: `/published/${base}`, key: base };
}

beforeAll(async () => {
  t = await createTestApp();
  staff = await createUser(t.ctx);
  const project = await publishedProject("Summer: Shoot/2026");
  url = project.url;
  zip = await readStored(t.ctx, project.key, "published");
});
afterAll(async () => {
  await t.close();
});

describe("GET /published/<name>.zip", () => {
  it("serves the whole ZIP without authentication, named after the project", async () => {
    const res = await getBinary(t.app, url);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("application/zip");
    expect(res.headers["content-length"]).toBe(String(zip.length));
    expect(res.headers["accept-ranges"]).toBe("bytes");
    expect(res.headers.etag).toBeTruthy();
    expect(res.headers["content-disposition"]).toBe('attachment; filename="Summer_ Shoot_2026.zip"');
    expect((res.body as Buffer).equals(zip)).toBe(true);
  });

  it("answers a byte range with 206 and exactly those bytes", async () => {
    const res = await getBinary(t.app, url, { Range: "bytes=10-109" });
    expect(res.status).toBe(206);
    expect(res.headers["content-range"]).toBe(`bytes 10-109/${zip.length}`);
    expect(res.headers["content-length"]).toBe("100");
    expect((res.body as Buffer).equals(zip.subarray(10, 110))).toBe(true);
  });

  it("answers an open-ended suffix range from the end of the file", async () => {
    const res = await getBinary(t.app, url, { Range: "bytes=-22" });
    expect(res.status).toBe(206);
    expect((res.body as Buffer).equals(zip.subarray(zip.length - 22))).toBe(true);
  });

  it("answers a range past the end with 416 and the real size", async () => {
    const res = await request(t.app)
      .get(url)
      .set("Range", `bytes=${zip.length + 10}-`);
    expect(res.status).toBe(416);
    expect(res.headers["content-range"]).toBe(`bytes */${zip.length}`);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.headers["content-disposition"]).toBeUndefined();
    expect(res.body).toEqual({ statusCode: 416, message: "Range not satisfiable" });
  });

  it("answers HEAD with the headers only", async () => {
    const res = await request(t.app).head(url);
    expect(res.status).toBe(200);
    expect(res.headers["content-length"]).toBe(String(zip.length));
    expect(res.headers["content-type"]).toBe("application/zip");
  });

  it("answers 304 to a client that already has this version", async () => {
    const first = await request(t.app).head(url);
    const res = await request(t.app).get(url).set("If-None-Match", first.headers.etag);
    expect(res.status).toBe(304);
  });

  it("answers the same bare 404 for unknown, malformed and path-like names", async () => {
    const names = [
      "/published/AAAAAAAAAAAAAAAAAAAAAAAAAAAA.zip",
      "/published/short.zip",
      "/published/..%2F..%2Fdb.sqlite3",
      "/published/%2e%2e",
      `${url}.part`,
      "/published/",
    ];
    for (const name of names) {
      const res = await request(t.app).get(name);
      expect(res.status, name).toBe(404);
      expect(res.body, name).toEqual({ statusCode: 404, message: "Not found" });
    }
  });

  it("does not serve a ZIP file that no published project records", async () => {
    const stray = "B".repeat(22) + ".zip";
    await writeStored(t.ctx, stray, zip, "published");
    const res = await request(t.app).get(`/published/${stray}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ statusCode: 404, message: "Not found" });
  });

  it("stops serving a ZIP as soon as its project is unpublished", async () => {
    const project = await publishedProject("Gone soon");
    expect((await request(t.app).head(project.url)).status).toBe(200);
    await request(t.app).delete(`/api/projects/${project.id}/publish`).set(staff.auth);
    const res = await request(t.app).get(project.url);
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ statusCode: 503, message: "This gallery is being updated — please check back soon" });
    expect(await publishedKeys(t.ctx)).not.toContain(project.key);
  });

  it("answers 404 when the recorded file is gone from disk", async () => {
    const project = await publishedProject("Lost file");
    await removeStored(t.ctx, project.key, "published");
    const res = await request(t.app).get(project.url);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ statusCode: 404, message: "Not found" });
  });
});

describe("the download's file name", () => {
  it("replaces characters file systems refuse and falls back to 'project'", () => {
    expect(zipFileName('a/b\\c:d*e?f"g<h>i|j')).toBe("a_b_c_d_e_f_g_h_i_j.zip");
    expect(zipFileName("  many   spaces\tand\nlines  ")).toBe("many spaces and lines.zip");
    expect(zipFileName("trailing dots...")).toBe("trailing dots.zip");
    expect(zipFileName("   ")).toBe("project.zip");
    expect(zipFileName("x".repeat(400))).toBe(`${"x".repeat(150)}.zip`);
  });

  it("adds an RFC 5987 filename* for names that are not ASCII", () => {
    expect(attachmentDisposition("Café Noël (2026)")).toBe(
      "attachment; filename=\"Cafe Noel (2026).zip\"; filename*=UTF-8''Caf%C3%A9%20No%C3%ABl%20%282026%29.zip",
    );
    expect(attachmentDisposition("東京")).toBe(
      "attachment; filename=\"__.zip\"; filename*=UTF-8''%E6%9D%B1%E4%BA%AC.zip",
    );
  });
});
