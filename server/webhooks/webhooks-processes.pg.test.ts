import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, RELAXED_LIMITS, signUp, type SessionBody } from "../auth/auth-test-helpers";
import { makeNoisyJpeg } from "../attachments/test-fixtures";
import { dataFolders, startAppProcess, type AppProcess } from "../test/app-process";
import { createTestDatabase, type TestDatabase } from "../test/test-database";
import { until } from "../test/wait";
import { startReceiver, type Receiver } from "./test-receiver";

/**
 * Real processes on one PostgreSQL database: an endpoint made through one gets the next event
 * raised on the other, two of them deliver each event once between them, and
 * an event whose change committed just before its process was killed (SIGKILL) is delivered by
 * the process started after it.
 */
let dir: string;
let database: TestDatabase;
let env: Record<string, string>;
let a: AppProcess;
let b: AppProcess;
let receiver: Receiver;
let admin: SessionBody;
const started: AppProcess[] = [];

const start = async () => {
  const p = await startAppProcess(env);
  started.push(p);
  return p;
};

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-webhooks-"));
  database = await createTestDatabase(dir);
  env = { ...RELAXED_LIMITS, WEBHOOK_ALLOW_PRIVATE: "1", DATABASE_URL: database.url, ...dataFolders(dir) };
  a = await start();
  b = await start();
  receiver = await startReceiver();
  admin = await signUp(a.url, "owner@studio.test");
}, 120_000);

afterAll(async () => {
  await Promise.all(started.map((p) => p.stop()));
  await receiver?.close();
  await database?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const auth = () => bearer(admin.accessToken);

describe("webhooks from several processes", () => {
  it("raise an event on one process for an endpoint created through the other just before", async () => {
    // B acts while no endpoint listens, so it knows none does (server/webhooks/subscribers.ts).
    await request(b.url).post("/api/clients").set(auth()).send({ name: "Before" }).expect(201);
    const hook = await request(a.url)
      .post("/api/webhooks")
      .set(auth())
      .send({ url: receiver.url("/fresh"), events: ["client.created"] });
    expect(hook.status).toBe(201);
    const client = await request(b.url).post("/api/clients").set(auth()).send({ name: "Right after" }).expect(201);
    const got = await until(
      () => receiver.received.filter((r) => r.path === "/fresh"),
      (l) => l.length >= 1,
      30_000,
    );
    expect(got[0].json).toMatchObject({ type: "client.created", data: { id: client.body.id, name: "Right after" } });
  });

  it("deliver each event once when two processes send", async () => {
    const hook = await request(a.url)
      .post("/api/webhooks")
      .set(auth())
      .send({ url: receiver.url("/two"), events: ["project.created"] });
    expect(hook.status).toBe(201);
    // Slow answers: every send is still in flight when the other process looks for work.
    receiver.delayMs = 1500;
    const made = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        request(i % 2 ? b.url : a.url)
          .post("/api/projects")
          .set(auth())
          .send({ name: `Shoot ${i}` }),
      ),
    );
    expect(made.map((r) => r.status)).toEqual(made.map(() => 201));
    const got = () => receiver.received.filter((r) => r.path === "/two");
    await until(got, (l) => new Set(l.map((r) => r.json.data.id)).size === 20, 30_000);
    // Quiet once all 20 attempts are recorded (each delivery then is no longer pending, so no process
    // claims it again) and the receiver owes no answer: a second send of any of them, claimed
    // while it was pending, would have reached the receiver before the first was answered.
    const attempts = await until(
      async () =>
        (await request(a.url).get(`/api/webhooks/${hook.body.id}/attempts`).set(auth())).body as Array<{
          status: number;
        }>,
      (list) => list.length >= 20 && receiver.answering === 0,
      30_000,
    );
    receiver.delayMs = 0;
    expect(attempts.map((attempt) => attempt.status)).toEqual(Array.from({ length: 20 }, () => 200));
    const ids = got().map((r) => r.headers["webhook-id"]);
    expect(ids).toHaveLength(20);
    expect(new Set(ids).size).toBe(20);
  }, 60_000);

  it("deliver project.published after a SIGKILL right after the publish committed", async () => {
    const hook = await request(a.url)
      .post("/api/webhooks")
      .set(auth())
      .send({ url: receiver.url("/crash"), events: ["project.published"] });
    expect(hook.status).toBe(201);
    const project = await request(a.url).post("/api/projects").set(auth()).send({ name: "Crash wedding" });
    const upload = await request(a.url)
      .post(`/api/attachments/projects/${project.body.id}/upload`)
      .set(auth())
      .attach("file", await makeNoisyJpeg(400, 300), "one.jpg");
    expect(upload.status).toBe(201);
    // B must not send it: only the process that is killed, and the one started after it, run.
    await b.stop();
    // Whatever A sends before it dies is never answered, so it cannot have recorded a delivery.
    receiver.holding = true;
    expect((await request(a.url).post(`/api/projects/${project.body.id}/publish`).set(auth())).status).toBe(202);
    await until(
      async () => (await request(a.url).get(`/api/projects/${project.body.id}`).set(auth())).body.publishStatus,
      (status) => status === "published",
      30_000,
    );
    a.kill("SIGKILL");
    receiver.holding = false;
    const sentBefore = receiver.received.filter((r) => r.path === "/crash").length;
    console.log(`A was killed with ${sentBefore} unanswered send(s) of project.published under way`);
    const c = await start();
    const answered = await until(
      () => receiver.received.filter((r) => r.path === "/crash" && !r.held),
      (l) => l.length >= 1,
      60_000,
    );
    expect(answered[0].json).toMatchObject({
      type: "project.published",
      data: { id: project.body.id, name: "Crash wedding", publishStatus: "published" },
    });
    const attempts = await request(c.url).get(`/api/webhooks/${hook.body.id}/attempts`).set(auth());
    expect(attempts.body.map((x: { status: number }) => x.status)).toEqual([200]);
  }, 120_000);
});
