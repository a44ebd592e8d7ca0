import crypto from "node:crypto";
import pg from "pg";
import type { Logger } from "../logger";
import type { BusMessage, BusRelay } from "./bus";

export const EVENTS_CHANNEL = "photodrop_events";
/** How the events connection shows in pg_stat_activity. */
export const EVENTS_APPLICATION_NAME = "photodrop-events";
/** NOTIFY refuses payloads of 8000 bytes or more; a change with many ids goes out in several. */
const MAX_PAYLOAD_BYTES = 7_000;
/** Announcements kept while the connection is down, sent once it is back; beyond, the oldest go. */
const MAX_QUEUED = 10_000;
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 5_000;
/** How long `sent()` waits for announcements queued while the connection is down. */
const SENT_WAIT_MS = 5_000;

interface Envelope {
  from: string;
  message: BusMessage;
}

/** Splits a change whose ids would not fit one NOTIFY into several of the same kind. */
export function payloadsFor(from: string, message: BusMessage): string[] {
  const whole = JSON.stringify({ from, message } satisfies Envelope);
  if (Buffer.byteLength(whole) <= MAX_PAYLOAD_BYTES || message.kind !== "resource") return [whole];
  const { ids } = message.change;
  const half = Math.ceil(ids.length / 2);
  return [ids.slice(0, half), ids.slice(half)].flatMap((part) =>
    payloadsFor(from, { kind: "resource", change: { ...message.change, ids: part } }),
  );
}

/**
 * The bus between processes on PostgreSQL: LISTEN/NOTIFY on one connection of its own (not from
 * knex's pool, which would hand it back and lose the LISTEN). Sends go through the same connection,
 * so they leave in the order they were announced. The connection comes back by itself after a
 * failure; what other processes announced meanwhile is lost, so `reconnected` is called then and
 * whatever this process keeps in memory on the strength of announcements is dropped.
 *
 * Ordering guarantees that let a process answer from memory and still honour a change made through
 * another on the very next request: `sent()` resolves once PostgreSQL has committed the NOTIFY of
 * every announcement so far (the change's process answers only then), and `caughtUp()` makes a round
 * trip on this connection, before whose end PostgreSQL delivers every notification committed
 * before it began (a listening session sends pending notifications before ReadyForQuery).
 */
export async function startPgRelay(
  databaseUrl: string,
  logger: Logger,
  on: { receive: (message: BusMessage) => void; reconnected: () => void },
): Promise<BusRelay> {
  const self = crypto.randomUUID();
  const queue: string[] = [];
  let client: pg.Client | undefined;
  let closed = false;
  let connectedOnce = false;
  let retryMs = RETRY_FIRST_MS;
  let retryTimer: NodeJS.Timeout | undefined;
  /** NOTIFYs sent and not yet answered; the last one, since one connection answers in order. */
  let outstanding = 0;
  let lastNotify: Promise<void> = Promise.resolve();
  const drained: Array<() => void> = [];
  let roundTrip: Promise<boolean> | undefined;
  let nextRoundTrip: Promise<boolean> | undefined;

  const onNotification = (note: pg.Notification) => {
    if (note.channel !== EVENTS_CHANNEL || !note.payload) return;
    let envelope: Envelope;
    try {
      envelope = JSON.parse(note.payload) as Envelope;
    } catch {
      logger.warn("ignored an unreadable event from another process");
      return;
    }
    if (envelope.from !== self) on.receive(envelope.message);
  };

  const notify = (connected: pg.Client, payload: string) => {
    outstanding++;
    lastNotify = connected
      .query("SELECT pg_notify($1, $2)", [EVENTS_CHANNEL, payload])
      .then(
        () => undefined,
        (err: Error) => logger.warn({ err: err.message }, "could not send an event to other processes"),
      )
      .finally(() => outstanding--);
  };

  const startRoundTrip = (): Promise<boolean> => {
    const connected = client;
    const trip = connected
      ? connected.query("SELECT 1").then(
          () => client === connected,
          () => false,
        )
      : Promise.resolve(false);
    roundTrip = trip;
    void trip.finally(() => {
      if (roundTrip === trip) roundTrip = undefined;
    });
    return trip;
  };

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: databaseUrl, application_name: EVENTS_APPLICATION_NAME });
    next.on("notification", onNotification);
    next.on("error", (err) => {
      logger.warn({ err: err.message }, "lost the events connection to the database; reconnecting");
      lost(next);
    });
    next.on("end", () => lost(next));
    try {
      await next.connect();
      await next.query(`LISTEN ${EVENTS_CHANNEL}`);
    } catch (err) {
      await next.end().catch(() => {});
      throw err;
    }
    if (closed) {
      await next.end();
      return;
    }
    client = next;
    retryMs = RETRY_FIRST_MS;
    if (connectedOnce) on.reconnected();
    connectedOnce = true;
    for (const payload of queue.splice(0)) notify(next, payload);
    for (const resolve of drained.splice(0)) resolve();
  };

  const lost = (which: pg.Client) => {
    if (client !== which) return;
    client = undefined;
    which.end().catch(() => {});
    scheduleRetry();
  };

  const scheduleRetry = () => {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      connect().catch((err: Error) => {
        logger.warn({ err: err.message, retryInMs: retryMs }, "events connection to the database failed");
        retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
        scheduleRetry();
      });
    }, retryMs);
    retryTimer.unref();
  };

  await connect();

  return {
    send(message) {
      for (const payload of payloadsFor(self, message)) {
        if (client) notify(client, payload);
        else if (queue.push(payload) > MAX_QUEUED) queue.shift();
      }
    },
    sent() {
      if (queue.length > 0) {
        const back = new Promise<void>((resolve) => drained.push(resolve));
        const waited = new Promise<void>((resolve) => setTimeout(resolve, SENT_WAIT_MS).unref());
        return Promise.race([back, waited]).then(() => lastNotify);
      }
      return outstanding > 0 ? lastNotify : undefined;
    },
    caughtUp() {
      if (!client) return Promise.resolve(false);
      if (!roundTrip) return startRoundTrip();
      // The round trip under way may have begun before the caller's request arrived: wait for the next.
      nextRoundTrip ??= roundTrip.then(() => {
        nextRoundTrip = undefined;
        return startRoundTrip();
      });
      return nextRoundTrip;
    },
    async close() {
      closed = true;
      for (const resolve of drained.splice(0)) resolve();
      clearTimeout(retryTimer);
      const last = client;
      client = undefined;
      await last?.end().catch(() => {});
    },
  };
}
