import type { BaseKey, LiveEvent, LiveProvider } from "@refinedev/core";
import { QueryClient, type Query, type QueryClientConfig } from "@tanstack/react-query";
import { eventsSocket, type EventFrame } from "../lib/events-socket";

// What the /events socket announces: every approved user's resources (the dashboard's totals and
// the studio's settings among them), and `users`, which only the admin-only screens ever subscribe to.
const LIVE_RESOURCES = new Set([
  "clients",
  "contacts",
  "projects",
  "attachments",
  "dashboard",
  "studio",
  "users",
  // A project's favourites (ids: the project's).
  "favourites",
]);

const AUTH_ERRORS = new Set(["Authentication required", "Failed to authenticate"]);
// The connection's states as codes: the publish card says them in the user's words.
const CONNECTION_LOST = "Connection lost";
const CONNECTION_FAILED = "Connection failed";

/** `projects/<id>`: that project's publish events and the connection's state, for its page. */
export const projectChannel = (projectId: number) => `projects/${projectId}`;

const sameId = (a: BaseKey, b: BaseKey) => String(a) === String(b);

type Callback = (event: LiveEvent) => void;

function followResource(channel: string, resource: string, types: string[], callback: Callback, watchedId?: BaseKey) {
  const stopListening = eventsSocket.onFrame((frame) => {
    if (frame.event !== "resource-changed" || frame.data.resource !== resource) return;
    const type = String(frame.data.type);
    if (!types.includes("*") && !types.includes(type)) return;
    const ids = Array.isArray(frame.data.ids) ? (frame.data.ids as BaseKey[]) : [];
    // A record page only cares about its own record.
    if (watchedId !== undefined && ids.length > 0 && !ids.some((id) => sameId(id, watchedId))) return;
    callback({ channel, type, payload: { ids }, date: new Date() });
  });
  const stopSubscription = eventsSocket.subscribeResources([resource]);
  return () => {
    stopListening();
    stopSubscription();
  };
}

/**
 * A project's channel: `publish_started|progress|completed|failed` events with their data,
 * `subscribed` once the server follows the project, and `connection` with `{error}` when the
 * socket cannot deliver them ('Authentication required', 'Failed to authenticate',
 * 'Connection lost', 'Connection failed').
 */
function followProject(channel: string, projectId: number, callback: Callback) {
  const send = (type: string, payload: Record<string, unknown>) =>
    callback({ channel, type, payload, date: new Date() });
  const stopFrames = eventsSocket.onFrame(({ event, data }) => {
    if (event === "error") {
      const message = String(data.message ?? "");
      if (AUTH_ERRORS.has(message)) send("connection", { error: message });
      return;
    }
    if (Number(data.projectId) !== projectId) return;
    if (event === "subscribed") send("subscribed", {});
    else if (event === "publish-event") send(String(data.type), (data.data ?? {}) as Record<string, unknown>);
  });
  const stopState = eventsSocket.onState((connection) => {
    if (connection === "lost") send("connection", { error: CONNECTION_LOST });
    else if (connection === "failed") send("connection", { error: CONNECTION_FAILED });
  });
  const unsubscribe = eventsSocket.subscribeProject(projectId);
  return () => {
    unsubscribe();
    stopState();
    stopFrames();
  };
}

/** Refine's cache key of a resource's data (default data provider): lists, records, many. */
const resourceKey = (resource: string) => ["data", "default", resource];

/**
 * Reads again what was being read when a change arrived. Refine's "auto" mode invalidates with
 * `cancelRefetch: false`, which leaves a fetch already in flight alone: its answer, read by the
 * server before the change, then lands as fresh data and the change is lost for the stale time.
 * That was the TLS journey's missed client: the list page's first fetch, slower through the TLS
 * proxy, was still in flight when the new client's `resource-changed` arrived.
 */
async function refetchInFlight(queryClient: QueryClient, { event, data }: EventFrame) {
  if (event !== "resource-changed" || !LIVE_RESOURCES.has(String(data.resource))) return;
  const inFlight = { queryKey: resourceKey(String(data.resource)), fetchStatus: "fetching" as const };
  const queries: Query[] = queryClient.getQueryCache().findAll(inFlight);
  if (queries.length === 0) return;
  // Cancelling reverts each to its state before the fetch (React Query's cancelRefetch would not
  // cancel a first fetch, which has no data yet); then they are read afresh.
  await queryClient.cancelQueries(inFlight);
  for (const { queryKey } of queries)
    void queryClient.invalidateQueries({ queryKey, exact: true, refetchType: "active" }, { cancelRefetch: false });
}

/**
 * A change is announced only to subscriptions the server has confirmed: whatever a screen read
 * before its resource's subscription was confirmed (its first read, or everything read before a
 * reconnect, when changes made while the socket was down were never announced) is read again once
 * it is. Otherwise a change made in that window, even the screen's own upload or save, never shows.
 */
function catchUpOnSubscribe(queryClient: QueryClient) {
  // What the current socket's subscriptions confirmed; a new socket starts with none.
  let confirmed = new Set<string>();
  eventsSocket.onState((state) => {
    if (state === "connecting") confirmed = new Set();
  });
  eventsSocket.onFrame(({ event, data }) => {
    if (!Array.isArray(data.resources)) return;
    const resources = data.resources as string[];
    if (event === "unsubscribed") for (const resource of resources) confirmed.delete(resource);
    if (event !== "subscribed") return;
    for (const resource of resources.filter((name) => !confirmed.has(name))) {
      confirmed.add(resource);
      void queryClient.invalidateQueries({ queryKey: resourceKey(resource), refetchType: "active" });
    }
  });
}

/** The app's React Query client, made here so that live frames can reach the queries they affect. */
export function liveQueryClient(config: QueryClientConfig): QueryClient {
  const queryClient = new QueryClient(config);
  // Registered before any screen subscribes, so it sees each frame before Refine's invalidation.
  eventsSocket.onFrame((frame) => void refetchInFlight(queryClient, frame));
  catchUpOnSubscribe(queryClient);
  return queryClient;
}

/**
 * Refine's live provider over the shared /events socket: a `resource-changed` frame becomes a
 * live event on `resources/<name>`, so lists and records another user changed refetch themselves
 * (options.liveMode "auto"); `projects/<id>` carries that project's publish progress.
 */
export const liveProvider: LiveProvider = {
  subscribe: ({ channel, types, callback, params }) => {
    const project = /^projects\/(\d+)$/.exec(channel);
    if (project) return followProject(channel, Number(project[1]), callback);
    const resource = channel.replace(/^resources\//, "");
    if (!LIVE_RESOURCES.has(resource)) return null;
    const watchedId = params?.subscriptionType === "useOne" ? params.id : undefined;
    return followResource(channel, resource, types, callback, watchedId);
  },
  unsubscribe: (subscription: (() => void) | null) => subscription?.(),
};
