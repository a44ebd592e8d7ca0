import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, RELAXED_LIMITS, signUp, type SessionBody } from "../auth/auth-test-helpers";
import { makeNoisyJpeg } from "../attachments/test-fixtures";
import { TestSocket } from "../events/test-socket";
import { startTwoProcesses, type AppProcess, type TwoProcesses } from "../test/app-process";
import { until } from "../test/wait";

/**
 * Two real Photodrop processes, A and B, on one PostgreSQL database and one data folder, each on
 * its own port, as behind a load balancer: what one does, the other's clients see.
 */
let two: TwoProcesses;
let a: AppProcess;
let b: AppProcess;
let admin: SessionBody;

beforeAll(async () => {
  two = await startTwoProcesses("photodrop-two-", RELAXED_LIMITS);
  ({ a, b } = two);
}, 120_000);

afterAll(() => two?.stop());

async function openSocket(on: AppProcess): Promise<TestSocket> {
  return TestSocket.open(`${on.url.replace(/^http/, "ws")}/events`);
}

/** Approves or revokes a user through `on`, as the admin. */
async function setAccess(on: AppProcess, uid: string, hasAccess: boolean) {
  const res = await request(on.url).patch(`/api/users/${uid}`).set(bearer(admin.accessToken)).send({ hasAccess });
  expect(res.status).toBe(200);
}

async function nextOf(socket: TestSocket, event: string, match: (data: Record<string, unknown>) => boolean) {
  for (;;) {
    const frame = await socket.next(15_000);
    if (frame.event === event && match(frame.data)) return frame.data;
  }
}

describe("two processes on one PostgreSQL database", () => {
  it("makes exactly one admin of twenty parallel first sign-ups split across A and B", async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        request(i % 2 === 0 ? a.url : b.url)
          .post("/api/auth/signup")
          .send({ email: `first${i}@studio.test`, password: "secret123" }),
      ),
    );
    expect(answers.map((res) => res.status)).toEqual(Array(20).fill(201));
    const admins = answers.map((res) => res.body as SessionBody).filter((s) => s.user.role === "admin");
    expect(admins).toHaveLength(1);
    admin = admins[0];
    const listed = await request(b.url).get("/api/users").query({ role: "admin" }).set(bearer(admin.accessToken));
    expect(listed.status).toBe(200);
    expect((listed.body as Array<{ role: string }>).filter((u) => u.role === "admin")).toHaveLength(1);
  });

  it("shows a client created through A in B's list and B's resource-changed stream", async () => {
    const socket = await openSocket(b);
    try {
      socket.send("subscribe-to-resources", { resources: ["clients"], token: admin.accessToken });
      await nextOf(socket, "subscribed", () => true);
      const created = await request(a.url)
        .post("/api/clients")
        .set(bearer(admin.accessToken))
        .send({ name: "Across Studio" });
      expect(created.status).toBe(201);
      const change = await nextOf(socket, "resource-changed", (d) => d.resource === "clients");
      expect(change).toEqual({ resource: "clients", type: "created", ids: [created.body.id] });
      const list = await request(b.url).get("/api/clients").set(bearer(admin.accessToken));
      expect((list.body as Array<{ id: number; name: string }>).map((c) => c.name)).toContain("Across Studio");
    } finally {
      socket.ws.close();
    }
  });

  it("relays the whole publish event sequence of a publish started through A to a subscriber on B", async () => {
    const project = await request(a.url)
      .post("/api/projects")
      .set(bearer(admin.accessToken))
      .send({ name: "Across Wedding" });
    expect(project.status).toBe(201);
    for (const name of ["one.jpg", "two.jpg", "three.jpg"]) {
      const res = await request(a.url)
        .post(`/api/attachments/projects/${project.body.id}/upload`)
        .set(bearer(admin.accessToken))
        .attach("file", await makeNoisyJpeg(1200, 900), name);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const socket = await openSocket(b);
    try {
      socket.send("subscribe-to-project", { projectId: project.body.id, token: admin.accessToken });
      await nextOf(socket, "subscribed", () => true);
      const started = await request(a.url)
        .post(`/api/projects/${project.body.id}/publish`)
        .set(bearer(admin.accessToken));
      expect(started.status, JSON.stringify(started.body)).toBeLessThan(300);
      const types: string[] = [];
      for (;;) {
        const event = await nextOf(socket, "publish-event", (d) => d.projectId === project.body.id);
        types.push(String(event.type));
        if (event.type === "publish_completed" || event.type === "publish_failed") break;
      }
      expect(types[0]).toBe("publish_started");
      expect(types.at(-1)).toBe("publish_completed");
      expect(types.slice(1, -1).every((t) => t === "publish_progress")).toBe(true);
      const onB = await request(b.url).get(`/api/projects/${project.body.id}`).set(bearer(admin.accessToken));
      expect(onB.body.publishStatus).toBe("published");
    } finally {
      socket.ws.close();
    }
  });

  it("refuses a user revoked through A on B at once, not when B's cache of signed-in users expires", async () => {
    const staff = await signUp(a.url, "walker@studio.test");
    await setAccess(a, staff.user.uid, true);
    // B reads the approved user once, and would keep it for up to five seconds.
    await until(
      async () => (await request(b.url).get("/api/clients").set(bearer(staff.accessToken))).status,
      (status) => status === 200,
    );
    const revokedAt = Date.now();
    await setAccess(a, staff.user.uid, false);
    await until(
      async () => (await request(b.url).get("/api/clients").set(bearer(staff.accessToken))).status,
      (status) => status === 403,
      4_000,
    );
    expect(Date.now() - revokedAt).toBeLessThan(1_500);
  });

  it("refuses on B's very next request an API token deleted through A", async () => {
    const made = await request(a.url)
      .post("/api/users/me/tokens")
      .set(bearer(admin.accessToken))
      .send({ name: "Folder watcher", scope: "write", expiresAt: null });
    expect(made.status).toBe(201);
    const withToken = bearer(made.body.token as string);
    // B reads the token once and keeps it in memory.
    for (let i = 0; i < 3; i += 1) expect((await request(b.url).get("/api/clients").set(withToken)).status).toBe(200);
    const deleted = await request(a.url).delete(`/api/users/me/tokens/${made.body.id}`).set(bearer(admin.accessToken));
    expect(deleted.status).toBe(204);
    const next = await request(b.url).get("/api/clients").set(withToken);
    expect([next.status, next.body.message]).toEqual([401, "Invalid or expired API token"]);
  });

  it("tells a waiting user's access socket on B of an approval made through A", async () => {
    const waiting = await signUp(b.url, "waiting@studio.test");
    const socket = await openSocket(b);
    try {
      socket.send("subscribe-to-access", { token: waiting.accessToken });
      expect(await nextOf(socket, "subscribed", () => true)).toMatchObject({ access: { hasAccess: false } });
      await setAccess(a, waiting.user.uid, true);
      expect(await nextOf(socket, "access-changed", () => true)).toEqual({ hasAccess: true, role: "staff" });
    } finally {
      socket.ws.close();
    }
  });

  it("refuses on B a refresh token A already rotated, and then ends that sign-in on A too", async () => {
    // Its own sign-up: the test stands without the ones before it.
    const session = await signUp(a.url, "replay@studio.test");
    const rotated = await request(a.url).post("/api/auth/refresh").send({ refreshToken: session.refreshToken });
    expect(rotated.status).toBe(200);
    const replay = await request(b.url).post("/api/auth/refresh").send({ refreshToken: session.refreshToken });
    expect(replay.status).toBe(401);
    const successor = await request(a.url).post("/api/auth/refresh").send({ refreshToken: rotated.body.refreshToken });
    expect(successor.status).toBe(401);
  });
});
