import type { Db } from "../db/database";
import type { EventBus } from "../events/bus";

/**
 * The event types some active endpoint subscribes to, kept per database connection pool (one a
 * process), so an action no endpoint listens to reads nothing. Dropped whenever the bus announces
 * a change of endpoints, here or in another process, or announcements were lost; on PostgreSQL
 * trusted only once caught up with the bus, so an endpoint created through another process gets
 * the very next event raised here.
 */
class SubscribedTypes {
  private types: Set<string> | undefined;
  /** Bumped on every change: a read that started before a change must not store what it read. */
  private version = 0;

  constructor(private readonly events: EventBus) {
    events.onResourceChanged((change) => {
      if (change.resource === "webhooks") this.forget();
    });
    events.onAnnouncementsLost(() => this.forget());
  }

  private forget() {
    this.version += 1;
    this.types = undefined;
  }

  /** False only when it is known that no active endpoint subscribes to `type`. */
  async anyFor(db: Db, type: string): Promise<boolean> {
    if (!(await this.events.caughtUp())) return true;
    if (this.types) return this.types.has(type);
    const version = this.version;
    const rows = (await db("webhook_endpoints").where({ active: true }).select("events")) as Array<{ events: string }>;
    const types = new Set(rows.flatMap((row) => JSON.parse(row.events) as string[]));
    if (version === this.version) this.types = types;
    return types.has(type);
  }
}

/**
 * One per database: a transaction's client shares its pool's `config` object (knex), so an event
 * recorded inside a caller's transaction finds the same cache.
 */
const byDatabase = new WeakMap<object, SubscribedTypes>();
const poolOf = (db: Db) => (db.client as { config: object }).config;

/** Keeps the subscribed types of `db` from now on, dropped by `events`' announcements. */
export function keepSubscribedTypes(db: Db, events: EventBus): void {
  if (!byDatabase.has(poolOf(db))) byDatabase.set(poolOf(db), new SubscribedTypes(events));
}

/** Whether an active endpoint may subscribe to `type`: true when nothing is kept for this database. */
export function mayHaveSubscribers(db: Db, type: string): Promise<boolean> | boolean {
  return byDatabase.get(poolOf(db))?.anyFor(db, type) ?? true;
}
