import type { BaseKey, LiveEvent, LiveProvider } from "@refinedev/core";
import { eventsSocket } from "../lib/events-socket";

// What the /events socket announces: every approved user's resources, and `users`, which only the
// admin-only screens (the users list, the navigation's pending badge) ever subscribe to.
const LIVE_RESOURCES = new Set(["clients", "contacts", "projects", "attachments", "users"]);

const sameId = (a: BaseKey, b: BaseKey) => String(a) === String(b);

/**
 * Refine's live provider over the shared /events socket: a `resource-changed` frame becomes a
 * live event on `resources/<name>`, so lists and records another user changed refetch themselves
 * (options.liveMode "auto").
 */
export const liveProvider: LiveProvider = {
  subscribe: ({ channel, types, callback, params }) => {
    const resource = channel.replace(/^resources\//, "");
    if (!LIVE_RESOURCES.has(resource)) return null;
    const stopListening = eventsSocket.onFrame((frame) => {
      if (frame.event !== "resource-changed" || frame.data.resource !== resource) return;
      const type = String(frame.data.type);
      if (!types.includes("*") && !types.includes(type)) return;
      const ids = Array.isArray(frame.data.ids) ? (frame.data.ids as BaseKey[]) : [];
      // A record page only cares about its own record.
      const watchedId = params?.subscriptionType === "useOne" ? params.id : undefined;
      if (watchedId !== undefined && ids.length > 0 && !ids.some((id) => sameId(id, watchedId))) return;
      const event: LiveEvent = { channel, type, payload: { ids }, date: new Date() };
      callback(event);
    });
    const stopSubscription = eventsSocket.subscribeResources([resource]);
    return () => {
      stopListening();
      stopSubscription();
    };
  },
  unsubscribe: (subscription: (() => void) | null) => subscription?.(),
};
