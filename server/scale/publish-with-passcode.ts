import path from "node:path";
import request from "supertest";
import { expect } from "vitest";
import { bearer } from "../auth/auth-test-helpers";
import { makeNoisyJpeg } from "../attachments/test-fixtures";
import type { AppProcess } from "../test/app-process";
import { until } from "../test/wait";

/** A project published through `on` by the holder of `accessToken`, with a passcode: answers its delivery token. */
export async function publishWithPasscode(on: AppProcess, accessToken: string, passcode: string): Promise<string> {
  const auth = bearer(accessToken);
  const project = await request(on.url).post("/api/projects").set(auth).send({ name: "Locked Wedding" });
  expect(project.status).toBe(201);
  const upload = await request(on.url)
    .post(`/api/attachments/projects/${project.body.id}/upload`)
    .set(auth)
    .attach("file", await makeNoisyJpeg(320, 240), "one.jpg");
  expect(upload.status, JSON.stringify(upload.body)).toBe(201);
  expect((await request(on.url).post(`/api/projects/${project.body.id}/publish`).set(auth)).status).toBe(202);
  const published = await until(
    async () => (await request(on.url).get(`/api/projects/${project.body.id}`).set(auth)).body,
    (p) => p.publishStatus === "published",
  );
  const settings = await request(on.url).put(`/api/projects/${project.body.id}/delivery`).set(auth).send({ passcode });
  expect(settings.status, JSON.stringify(settings.body)).toBe(200);
  return path.basename(published.downloadUrl as string, ".zip");
}
