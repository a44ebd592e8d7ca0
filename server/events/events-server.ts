import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import type { AppContext } from "../context";
import { publishQueue } from "../publish/publish-job";
import { EventSession } from "./event-session";
import { appMetrics } from "../ops/metrics";
import { TooManyRequestsError } from "../http/errors";
import { authRateLimits, SIGN_IN } from "../http/rate-limit";
import { clientAddressOf, trustProxyOf } from "../http/client-address";
import { workUnderWay } from "../work-under-way";

export interface EventsServerOptions {
  /** How often sockets are pinged; one that has not answered the previous ping is dropped. */
  heartbeatMs?: number;
  /** Frames a socket may send per second before it is closed. */
  maxFramesPerSecond?: number;
  /** A socket with no successful subscription by then is closed (4401). */
  subscribeTimeoutMs?: number;
}

const EVENTS_PATH = "/events";
/** Client frames are small JSON objects (a token and a few names, well under 2 kB); anything larger is refused by ws (close 1009) before it is buffered. */
const MAX_PAYLOAD = 4 * 1024;
const TOO_MANY = "429 Too Many Requests";
const UNAVAILABLE = "503 Service Unavailable";

/** Answers an upgrade that will not become a socket, and closes the connection. */
function refuse(socket: Duplex, status: string): void {
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

const rechecks = workUnderWay<AppContext>();

/**
 * Resolves once the sockets' re-checks of every user change announced so far have ended (what
 * they sent, `access-changed` or a close, has been sent): in tests that check a change told a
 * socket nothing.
 */
export function userRechecksSettled(ctx: AppContext): Promise<void> {
  return rechecks.settled(ctx);
}

/** The live socket at /events, sharing the HTTP server. Returns a function that closes it. */
export function attachEventsServer(
  server: Server,
  ctx: AppContext,
  options: EventsServerOptions = {},
): { close(): Promise<void> } {
  const heartbeatMs = options.heartbeatMs ?? 30_000;
  const maxFramesPerSecond = options.maxFramesPerSecond ?? 50;
  const subscribeTimeoutMs = options.subscribeTimeoutMs ?? 10_000;
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD });
  const sessions = new Map<WebSocket, EventSession>();
  const queue = publishQueue(ctx);
  const perAddress = new Map<string, number>();
  const limits = authRateLimits(ctx);
  // The client's address as the HTTP API's `req.ip` reads it: behind a trusted proxy, not the proxy's.
  const trust = trustProxyOf(ctx.config.trustProxy);

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node drops its own error listener from upgraded sockets: without this a reset kills the process.
    socket.on("error", (err) => ctx.logger.debug({ err }, "events: upgrade socket error"));
    // The raw request target, unparsed: `new URL` throws on hostile targets such as `http://[`.
    const pathname = (req.url ?? "/").split("?")[0];
    if (pathname !== EVENTS_PATH && pathname !== `${EVENTS_PATH}/`) {
      // Leave other paths to any other upgrade handler; with none, refuse plainly.
      if (server.listenerCount("upgrade") === 1) refuse(socket, "404 Not Found");
      return;
    }
    const address = clientAddressOf(req, trust);
    if ((perAddress.get(address) ?? 0) >= ctx.config.events.maxSocketsPerIp) return refuse(socket, TOO_MANY);
    // The address's slot is taken now, before anything is awaited, so a burst cannot overshoot the
    // cap; it is given back when the connection ends, however it ends (refused, bad handshake, closed).
    perAddress.set(address, (perAddress.get(address) ?? 0) + 1);
    socket.once("close", () => release(address));
    admit(req, socket, head, address).catch((err: unknown) => {
      ctx.logger.warn({ err }, "events: could not admit a socket");
      socket.destroy();
    });
  };

  const release = (address: string) => {
    const left = (perAddress.get(address) ?? 1) - 1;
    if (left > 0) perAddress.set(address, left);
    else perAddress.delete(address);
  };

  const admit = async (req: IncomingMessage, socket: Duplex, head: Buffer, address: string): Promise<void> => {
    // An address that spent its sign-in budget (refused socket tokens count there too) waits out the window.
    if (await limits.ipSpent(SIGN_IN, address)) return refuse(socket, TOO_MANY);
    if (sessions.size >= ctx.config.events.maxSockets) return refuse(socket, UNAVAILABLE);
    wss.handleUpgrade(req, socket, head, (ws) => onConnection(ws, address));
  };
  server.on("upgrade", onUpgrade);

  const onConnection = (ws: WebSocket, address: string) => {
    const onRefusedToken = () =>
      limits.byIp(SIGN_IN, address).catch((err: unknown) => {
        if (!(err instanceof TooManyRequestsError)) throw err;
        ws.close(1008, "Too many failed authentications");
      });
    const session = new EventSession(ctx, ws, (projectId) => queue.progressOf(projectId), onRefusedToken);
    sessions.set(ws, session);
    // A socket that has not subscribed successfully within this time only holds resources.
    const idle = setTimeout(() => {
      if (!session.uid && !session.access.uid) ws.close(4401, "No subscription");
    }, subscribeTimeoutMs);
    idle.unref();
    ws.once("close", () => clearTimeout(idle));
    appMetrics(ctx).trackEventsConnection(ws);
    let windowStart = Date.now();
    let framesInWindow = 0;
    ws.on("pong", () => (session.alive = true));
    ws.on("message", (data, isBinary) => {
      const now = Date.now();
      if (now - windowStart >= 1000) {
        windowStart = now;
        framesInWindow = 0;
      }
      if (++framesInWindow > maxFramesPerSecond) return ws.close(1008, "Too many frames");
      if (isBinary) return session.sendError("Malformed frame: expected JSON text");
      session.receive(data.toString());
    });
    ws.on("error", (err) => ctx.logger.debug({ err }, "events: socket error"));
    ws.on("close", () => sessions.delete(ws));
  };

  const stopPublish = ctx.events.onPublishEvent((event) => {
    for (const session of sessions.values()) session.deliverPublishEvent(event);
  });
  const stopResources = ctx.events.onResourceChanged((change) => {
    for (const session of sessions.values()) session.deliverResourceChange(change);
  });
  // Approval, revocation, role changes, a password reset or sign-out everywhere (every `users`
  // change is also a user change) reach open sockets at once, not at the next heartbeat.
  // Deferred so every other listener (the signed-in users cache above all) has dropped the user first.
  const stopUsers = ctx.events.onUserChanged((uid) =>
    rechecks.add(
      ctx,
      new Promise<void>((resolve) =>
        setImmediate(() => {
          const done: Array<Promise<void>> = [];
          for (const session of sessions.values()) {
            if (session.uid === uid) done.push(recheck(session));
            if (session.access.uid === uid) done.push(recheckAccess(session));
          }
          void Promise.all(done).then(() => resolve());
        }),
      ),
    ),
  );

  const recheck = (session: EventSession) =>
    session.recheckUser().catch((err) => ctx.logger.warn({ err }, "events: could not re-check a user"));

  const recheckAccess = (session: EventSession) =>
    session.access.recheck().catch((err) => ctx.logger.warn({ err }, "events: could not re-check a user's access"));

  const heartbeat = setInterval(() => {
    for (const [ws, session] of sessions) {
      if (!session.alive) {
        ws.terminate();
        continue;
      }
      session.alive = false;
      ws.ping();
      if (session.stillAuthorised()) void recheck(session);
      void recheckAccess(session);
    }
  }, heartbeatMs);
  heartbeat.unref();

  return {
    async close() {
      clearInterval(heartbeat);
      stopPublish();
      stopResources();
      stopUsers();
      server.off("upgrade", onUpgrade);
      for (const ws of sessions.keys()) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
