import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeImage } from "../attachments/test-fixtures";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { insertProjectRow } from "../test/rows";
import { startS3Server, type TestS3Server } from "../test/s3-server";
import { PUBLISH_NEEDS_FOLDERS } from "./publish.service";

let s3: TestS3Server;
let t: TestApp;
let staff: TestUser;
beforeAll(async () => {
  s3 = await startS3Server();
  t = await createTestApp(s3.env("publish"));
  staff = await createUser(t.ctx);
});
afterAll(async () => {
  await t?.close();
  await s3?.stop();
});

describe("publishing with object storage", () => {
  it("is refused with 409 saying why, and the project stays a draft", async () => {
    const id = await insertProjectRow(t.ctx);
    const upload = await request(t.app)
      .post(`/api/attachments/projects/${id}/upload`)
      .set(staff.auth)
      .attach("file", await makeImage("jpeg"), "a.jpg");
    expect(upload.status).toBe(201);
    const res = await request(t.app).post(`/api/projects/${id}/publish`).set(staff.auth);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ statusCode: 409, message: PUBLISH_NEEDS_FOLDERS });
    const row = await t.ctx.db("projects").where({ id }).first();
    expect(row.publish_status).toBe("draft");
  });
});
