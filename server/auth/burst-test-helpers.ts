import http from "node:http";
import type { AddressInfo } from "node:net";
import type { AppHandler } from "../app";

/** An app on a real port of 127.0.0.1. */
export interface Listening {
  port: number;
  close(): Promise<void>;
}

export async function listen(app: AppHandler): Promise<Listening> {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export interface BurstRequest {
  port: number;
  path: string;
  /** A JSON body, or a form's fields with `form`. */
  body: Record<string, string>;
  form?: boolean;
  /** The loopback address it is sent from (Linux routes all of 127/8 to lo). */
  from?: string;
}

/**
 * Sends every request at once, in the order given, each on its own connection, before any answer
 * has come: answers their statuses in the same order.
 */
export function burst(requests: BurstRequest[]): Promise<number[]> {
  return Promise.all(
    requests.map(
      ({ port, path, body, form, from }) =>
        new Promise<number>((resolve, reject) => {
          const text = form ? new URLSearchParams(body).toString() : JSON.stringify(body);
          const type = form ? "application/x-www-form-urlencoded" : "application/json";
          const req = http.request(
            {
              host: "127.0.0.1",
              port,
              localAddress: from,
              method: "POST",
              path,
              agent: false,
              headers: { "Content-Type": type, "Content-Length": Buffer.byteLength(text) },
            },
            (res) => {
              res.resume();
              res.on("end", () => resolve(res.statusCode ?? 0));
            },
          );
          req.on("error", reject);
          req.end(text);
        }),
    ),
  );
}

/** How many of `statuses` are each status. */
export function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
}
