// @vitest-environment jsdom
import type { LiveEvent } from "@refinedev/core";
import { QueryObserver } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { insertProjectRow } from "../../../server/test/rows";
import { eventsSocket } from "../lib/events-socket";
import { webAppServerPerFile } from "../test/web-app-server";
import { http } from "./http";
import { liveProvider, liveQueryClient, projectChannel } from "./live-provider";

const server = webAppServerPerFile({ signIn: true });

/** Subscribes and resolves once the server has confirmed the subscription. */
async function subscribed(channel: string, params: Record<string, unknown> = {}) {
  const events: LiveEvent[] = [];
  const confirmed = new Promise<void>((resolve) => {
    const stop = eventsSocket.onFrame((frame) => {
      if (frame.event !== "subscribed") return;
      stop();
      resolve();
    });
  });
  const subscription = liveProvider.subscribe({ channel, types: ["*"], params, callback: (e) => events.push(e) });
  await confirmed;
  return { events, stop: () => liveProvider.unsubscribe(subscription) };
}

describe("the live provider over the real /events socket", () => {
  it("turns another user's change into a live event on resources/<name>", async () => {
    const live = await subscribed("resources/clients");
    const { body: client } = await server
      .api()
      .post("/api/clients")
      .set(server.colleague.auth)
      .send({ name: "Live Provider Client" });
    await expect.poll(() => live.events.map((e) => [e.type, e.payload.ids])).toContainEqual(["created", [client.id]]);
    expect(live.events.every((e) => e.channel === "resources/clients")).toBe(true);
    live.stop();
  });

  it("tells a record's page only about its own record", async () => {
    const api = server.api;
    const { body: watched } = await api().post("/api/clients").set(server.colleague.auth).send({ name: "Watched" });
    const { body: other } = await api().post("/api/clients").set(server.colleague.auth).send({ name: "Other" });
    const live = await subscribed("resources/clients", { subscriptionType: "useOne", id: String(watched.id) });
    await api().put(`/api/clients/${other.id}`).set(server.colleague.auth).send({ name: "Other 2" }).expect(200);
    await api().put(`/api/clients/${watched.id}`).set(server.colleague.auth).send({ name: "Watched 2" }).expect(200);
    await expect.poll(() => live.events.length).toBe(1);
    expect(live.events[0]).toMatchObject({ type: "updated", payload: { ids: [watched.id] } });
    live.stop();
  });

  it("announces the dashboard totals when a client is created", async () => {
    const live = await subscribed("resources/dashboard", { subscriptionType: "useOne", id: "stats" });
    await server.api().post("/api/clients").set(server.colleague.auth).send({ name: "Counted" }).expect(201);
    await expect.poll(() => live.events.map((e) => e.payload.ids)).toContainEqual(["stats"]);
    live.stop();
  });

  it("carries one project's publish events, and only its own, on projects/<id>", async () => {
    const projectId = await insertProjectRow(server.t.ctx, { name: "Live channel project" });
    const live = await subscribed(projectChannel(projectId));
    await expect.poll(() => live.events.map((e) => e.type)).toContain("subscribed");
    server.t.ctx.events.publishEvent({ projectId, type: "publish_progress", data: { progress: 40 } });
    server.t.ctx.events.publishEvent({ projectId: projectId + 1000, type: "publish_progress", data: { progress: 99 } });
    server.t.ctx.events.publishEvent({ projectId, type: "publish_completed", data: { progress: 100 } });
    await expect.poll(() => live.events.map((e) => e.type)).toContain("publish_completed");
    expect(live.events.filter((e) => e.type.startsWith("publish_")).map((e) => [e.type, e.payload])).toEqual([
      ["publish_progress", { progress: 40 }],
      ["publish_completed", { progress: 100 }],
    ]);
    live.stop();
  });

  it("reads a list again when a change arrives while it is being read (its first answer predates the change)", async () => {
    const queryClient = liveQueryClient({ defaultOptions: { queries: { retry: false, staleTime: 60_000 } } });
    const live = await subscribed("resources/clients");
    let reads = 0;
    let changeHeard: () => void = () => {};
    const heard = new Promise<void>((resolve) => (changeHeard = resolve));
    const observer = new QueryObserver(queryClient, {
      queryKey: ["data", "default", "clients", "list", { name: "in flight" }],
      queryFn: async () => {
        const { data } = await http.get<Array<{ name: string }>>("/clients");
        // The first answer was read before the change and arrives only after it was announced.
        if (++reads === 1) await heard;
        return data.map((client) => client.name);
      },
    });
    const stopObserving = observer.subscribe(() => {});
    await expect.poll(() => reads).toBe(1);
    await server.api().post("/api/clients").set(server.colleague.auth).send({ name: "Made Mid-Read" }).expect(201);
    await expect.poll(() => live.events.length).toBeGreaterThan(0);
    changeHeard();
    await expect.poll(() => observer.getCurrentResult().data ?? [], { timeout: 10_000 }).toContain("Made Mid-Read");
    expect(reads).toBe(2);
    stopObserving();
    live.stop();
  });

  it("reads lists again once a lost socket is back, for the changes made while it was down", async () => {
    const queryClient = liveQueryClient({ defaultOptions: { queries: { retry: false, staleTime: 60_000 } } });
    const live = await subscribed("resources/clients");
    const observer = new QueryObserver(queryClient, {
      queryKey: ["data", "default", "clients", "list", { name: "across a reconnect" }],
      queryFn: async () => (await http.get<Array<{ name: string }>>("/clients")).data.map((client) => client.name),
    });
    const stopObserving = observer.subscribe(() => {});
    await expect.poll(() => observer.getCurrentResult().status).toBe("success");
    const states: string[] = [];
    let lost: () => void = () => {};
    const wentDown = new Promise<void>((resolve) => (lost = resolve));
    const stopStates = eventsSocket.onState((state) => {
      states.push(state);
      if (state === "lost") lost();
    });
    // The connection drops (a proxy restart, a phone leaving Wi-Fi); the change is made meanwhile,
    // then the browser is back online and the socket reconnects without waiting out its backoff.
    (eventsSocket as unknown as { socket: WebSocket }).socket.close();
    await wentDown;
    await server.api().post("/api/clients").set(server.colleague.auth).send({ name: "Made Offline" }).expect(201);
    window.dispatchEvent(new Event("online"));
    await expect.poll(() => observer.getCurrentResult().data ?? [], { timeout: 15_000 }).toContain("Made Offline");
    expect(states).toContain("open");
    stopStates();
    stopObserving();
    live.stop();
  });

  it("reads a list again once its subscription is confirmed, for a change made after the list's first read", async () => {
    const queryClient = liveQueryClient({ defaultOptions: { queries: { retry: false, staleTime: 60_000 } } });
    const observer = new QueryObserver(queryClient, {
      queryKey: ["data", "default", "clients", "list", { name: "before subscribing" }],
      queryFn: async () => (await http.get<Array<{ name: string }>>("/clients")).data.map((client) => client.name),
    });
    const stopObserving = observer.subscribe(() => {});
    await expect.poll(() => observer.getCurrentResult().status).toBe("success");
    // Made between the list's read and its subscription: announced to nobody.
    await server.api().post("/api/clients").set(server.colleague.auth).send({ name: "Made Unwatched" }).expect(201);
    const live = await subscribed("resources/clients");
    await expect.poll(() => observer.getCurrentResult().data ?? [], { timeout: 15_000 }).toContain("Made Unwatched");
    stopObserving();
    live.stop();
  });

  it("refuses channels it does not know", () => {
    expect(liveProvider.subscribe({ channel: "resources/secrets", types: ["*"], callback: () => {} })).toBeNull();
  });
});
