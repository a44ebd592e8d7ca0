import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { insertProjectRow } from "../test/rows";
import { projectRow, readZip, recordPublishEvents } from "../publish/test-fixtures";
import { makeImage } from "./test-fixtures";
import path from "node:path";
import contentDisposition from "content-disposition";

let t: TestApp;
let user: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  user = await createUser(t.ctx);
});
afterAll(async () => {
  await t.close();
});

/** A multipart body whose file name goes as RFC 5987 `filename*`, so CR, LF and NUL reach the server as sent. */
function multipart(files: Array<{ name: string; bytes: Buffer }>) {
  const boundary = "----photodrop-names";
  const parts = files.flatMap(({ name, bytes }) => [
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename*=UTF-8''${encodeURIComponent(name)}\r\nContent-Type: image/jpeg\r\n\r\n`,
    ),
    bytes,
    Buffer.from("\r\n"),
  ]);
  return {
    body: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

const SENT = [
  ["photo\u202Egpj.exe", "photogpj.exe.jpg"],
  ["evil\r\nname.jpg", "evilname.jpg"],
  ["nul\u0000byte.jpg", "nulbyte.jpg"],
  ["poly.html", "poly.html.jpg"],
  ["\u2066 \u0007 ", "photo-5.jpg"],
  ["  spaced.JPEG  ", "spaced.JPEG"],
] as const;

describe("file names made safe at upload and rename", () => {
  it("stores, downloads and zips names without controls or bidi overrides and with the detected type's extension", async () => {
    const projectId = await insertProjectRow(t.ctx);
    const jpeg = await makeImage("jpeg");
    // A JPEG with a script appended: still a valid JPEG by its first bytes.
    const polyglot = Buffer.concat([jpeg, Buffer.from("<script>alert(1)</script>")]);
    const { body, type } = multipart(SENT.map(([name]) => ({ name, bytes: name === "poly.html" ? polyglot : jpeg })));
    const res = await request(t.app)
      .post(`/api/attachments/projects/${projectId}/upload-multiple`)
      .set(user.auth)
      .set("Content-Type", type)
      .send(body);
    expect(res.status).toBe(201);
    const expected = SENT.map(([, stored]) => stored);
    expect(res.body.map((a: { originalName: string }) => a.originalName)).toEqual(expected);

    const list = await request(t.app).get(`/api/attachments?projectId=${projectId}&_sort=id&_order=asc`).set(user.auth);
    expect(list.body.map((a: { originalName: string }) => a.originalName)).toEqual(expected);

    for (const [i, a] of (res.body as Array<{ downloadUrl: string }>).entries()) {
      const download = await request(t.app).get(a.downloadUrl);
      expect(download.status).toBe(200);
      const disposition = download.headers["content-disposition"] as string;
      expect(contentDisposition.parse(disposition).parameters.filename).toBe(expected[i]);
    }

    // The ZIP's entries in the order the names were sent (the default, by file name, would reorder them).
    await request(t.app)
      .patch(`/api/projects/${projectId}`)
      .set(user.auth)
      .send({ photoOrder: "uploaded" })
      .expect(200);
    const events = recordPublishEvents(t.ctx, projectId);
    expect((await request(t.app).post(`/api/projects/${projectId}/publish`).set(user.auth)).status).toBe(202);
    await events.next("publish_completed", 60_000);
    const zip = path.join(
      t.ctx.config.publishedDir,
      path.basename((await projectRow(t.ctx, projectId)).published_zip_path),
    );
    const entries = await readZip(zip);
    expect(entries.map((e) => e.name)).toEqual(expected);
    expect(entries.every((e) => e.name.endsWith(".jpg") || e.name.endsWith(".JPEG"))).toBe(true);
  }, 90_000);

  it("refuses a typed rename with a line break, a control character or a bidi override, and keeps the name", async () => {
    const projectId = await insertProjectRow(t.ctx);
    const up = await request(t.app)
      .post(`/api/attachments/projects/${projectId}/upload`)
      .set(user.auth)
      .attach("file", await makeImage("png"), "a.png");
    const id = up.body.id as number;
    const rename = (originalName: string) =>
      request(t.app).patch(`/api/attachments/${id}`).set(user.auth).send({ originalName });

    // Spaces and line breaks around a name are trimmed away; the stored name still ends in its type.
    expect((await rename("page.html\r\n")).body.originalName).toBe("page.html.png");
    expect((await rename("kept.PNG")).body.originalName).toBe("kept.PNG");

    for (const typed of ["cute\u202Egnp.exe", "two\r\nlines.png", "nul\u0000.png", "\u202E\r\n\u0000"]) {
      const refused = await rename(typed);
      expect(refused.status, JSON.stringify(typed)).toBe(400);
      expect(refused.body.errors).toEqual({ originalName: "Name must be on one line, without control characters" });
    }
    expect((await rename(" \r\n ")).body.errors).toEqual({ originalName: "Name is required" });
    expect((await request(t.app).get(`/api/attachments/${id}`).set(user.auth)).body.originalName).toBe("kept.PNG");
  });
});
