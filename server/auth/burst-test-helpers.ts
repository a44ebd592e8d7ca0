import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "vitest";
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
  headers?: Record<string, string>;
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
}

/** One POST on its own connection: answers once its body has been read. */
export function post({ port, path, body, form, from, headers }: BurstRequest): Promise<Answer> {
  const text = form ? new URLSearchParams(body).toString() : JSON.stringify(body);
  const type = form ? "application/x-www-form-urlencoded" : "application/json";
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        localAddress: from,
        method: "POST",
        path,
        agent: false,
        headers: { "Content-Type": type, "Content-Length": Buffer.byteLength(text), ...headers },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      },
    );
    req.on("error", reject);
    req.end(text);
  });
}

/**
 * Sends every request at once, in the order given, each on its own connection, before any answer
 * has come: answers their statuses in the same order.
 */
export async function burst(requests: BurstRequest[]): Promise<number[]> {
  return (await Promise.all(requests.map(post))).map((answer) => answer.status);
}

/** Thirty sign-ins with wrong passwords for `email`, the i-th to `port(i)`, from `from(i)` if given. */
export function wrongPasswords(
  email: string,
  port: (i: number) => number,
  from?: (i: number) => string,
): BurstRequest[] {
  return Array.from({ length: 30 }, (_, i) => ({
    port: port(i),
    path: "/api/auth/login",
    body: { email, password: `wrong-${i}` },
    from: from?.(i),
  }));
}

/** Thirty guesses at a delivery link's passcode, '0000' to '0029', the i-th to `port(i)`. */
export function passcodeGuesses(token: string, port: (i: number) => number): BurstRequest[] {
  return Array.from({ length: 30 }, (_, i) => ({
    port: port(i),
    path: `/d/${token}/unlock`,
    body: { passcode: String(i).padStart(4, "0") },
    form: true,
  }));
}

/** How many of `statuses` are each status. */
export function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
}

/** Expects every one of `statuses` to be one of `allowed`: answers how many are each status. */
export function tallyOnly(statuses: number[], allowed: number[]): Record<number, number> {
  const counts = tally(statuses);
  expect(
    statuses.every((s) => allowed.includes(s)),
    JSON.stringify(counts),
  ).toBe(true);
  return counts;
}
