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
 * failure; what other processes announced meanwhile is lost, which the signed-in users cache bears
 * (its entries expire within seconds) and live lists bear at their next change.
 */
export async function startPgRelay(
  databaseUrl: string,
  logger: Logger,
  receive: (message: BusMessage) => void,
): Promise<BusRelay> {
  const self = crypto.randomUUID();
  const queue: string[] = [];
  let client: pg.Client | undefined;
  let closed = false;
  let retryMs = RETRY_FIRST_MS;
  let retryTimer: NodeJS.Timeout | undefined;

  const onNotification = (note: pg.Notification) => {
    if (note.channel !== EVENTS_CHANNEL || !note.payload) return;
    let envelope: Envelope;
    try {
      envelope = JSON.parse(note.payload) as Envelope;
    } catch {
      logger.warn("ignored an unreadable event from another process");
      return;
    }
    if (envelope.from !== self) receive(envelope.message);
  };

  const notify = (connected: pg.Client, payload: string) => {
    connected.query("SELECT pg_notify($1, $2)", [EVENTS_CHANNEL, payload]).catch((err: Error) => {
      logger.warn({ err: err.message }, "could not send an event to other processes");
    });
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
    for (const payload of queue.splice(0)) notify(next, payload);
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
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      const last = client;
      client = undefined;
      await last?.end().catch(() => {});
    },
  };
}
