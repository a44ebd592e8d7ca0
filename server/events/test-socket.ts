/** A real `ws` client for tests, with a way to wait for the next frame of a kind. */
import WebSocket from "ws";
import type { AppContext } from "../context";
import { appMetrics } from "../ops/metrics";

export interface Frame {
  event: string;
  data: Record<string, unknown>;
  at: number;
}

export class TestSocket {
  readonly frames: Frame[] = [];
  private consumed = 0;
  private wake: (() => void) | undefined;
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(readonly ws: WebSocket) {
    ws.on("message", (raw) => {
      const { event, data } = JSON.parse(raw.toString());
      this.frames.push({ event, data, at: Date.now() });
      this.wake?.();
    });
    this.closed = new Promise((resolve) =>
      ws.on("close", (code, reason) => resolve({ code, reason: reason.toString() })),
    );
  }

  static open(url: string, options: WebSocket.ClientOptions = {}): Promise<TestSocket> {
    const ws = new WebSocket(url, options);
    const socket = new TestSocket(ws);
    return new Promise((resolve, reject) => {
      ws.once("open", () => resolve(socket));
      ws.once("error", reject);
    });
  }

  send(event: string, data?: unknown): void {
    this.ws.send(JSON.stringify({ event, data }));
  }

  /** The next frame not yet returned, waiting for it if need be. */
  async next(timeoutMs = 10_000): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    while (this.consumed >= this.frames.length) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no frame within ${timeoutMs} ms; got ${JSON.stringify(this.frames)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => (clearTimeout(timer), resolve());
      });
    }
    return this.frames[this.consumed++];
  }

  /**
   * Frames (not yet returned) the server sent before it answered a probe sent now: an unknown
   * event, answered after the frames before it, and after whatever was already sent (a socket keeps
   * its frames' order). It proves the quiet after an announcement in this process, which reaches
   * the sockets at once; after a user change, once `userRechecksSettled` (events-server.ts) says
   * the server's re-checks of it have ended.
   */
  async quiet(): Promise<Frame[]> {
    this.send("quiet-probe", {});
    const rest: Frame[] = [];
    for (let frame = await this.next(); ; frame = await this.next()) {
      if (frame.event === "error" && frame.data.message === "Unknown event: quiet-probe") return rest;
      rest.push(frame);
    }
  }

  close(): void {
    this.ws.terminate();
  }
}

/**
 * Opens a raw `ws` socket from a chosen loopback address (with any extra request headers, such as a
 * proxy's X-Forwarded-For); resolves once open, or with the refusal's status.
 */
export function openFrom(
  url: string,
  from: string,
  headers: Record<string, string> = {},
): Promise<{ ws: WebSocket; status?: number }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { localAddress: from, headers });
    ws.once("open", () => resolve({ ws }));
    ws.once("unexpected-response", (_req, res) => resolve({ ws, status: res.statusCode }));
    ws.once("error", (err) => (ws.readyState === WebSocket.CLOSED ? undefined : reject(err)));
  });
}

/**
 * Sockets the app's /events hub holds open (its photodrop_events_connections gauge). A socket
 * leaves it only after the server has given its address's slot back (that happens first on close).
 */
export async function openEventSockets(ctx: AppContext): Promise<number> {
  return (await appMetrics(ctx).eventsConnections.get()).values[0]?.value ?? 0;
}
