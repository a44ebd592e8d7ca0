import { EventEmitter } from "node:events";

export type ResourceName =
  | "clients"
  | "contacts"
  | "projects"
  | "attachments"
  | "users"
  | "dashboard"
  | "studio"
  // A project's favourites (ids: the project's): its visitors' lists changed.
  | "favourites"
  // Webhook endpoints (not followed by sockets: the processes' caches of who subscribes listen).
  | "webhooks";

/** The dashboard's totals (one record, id "stats") count clients, projects and attachments. */
const COUNTED_ON_THE_DASHBOARD = new Set<ResourceName>(["clients", "projects", "attachments"]);

export interface ResourceChange {
  resource: ResourceName;
  type: "created" | "updated" | "deleted";
  ids: Array<number | string>;
}

export type PublishEventType = "publish_started" | "publish_progress" | "publish_completed" | "publish_failed";

export interface PublishEvent {
  projectId: number;
  type: PublishEventType;
  data: { progress?: number; error?: string };
}

/** What crosses between processes: ids, never rows (PostgreSQL's NOTIFY carries at most 8 kB). */
export type BusMessage =
  | { kind: "resource"; change: ResourceChange }
  | { kind: "user"; uid: string }
  | { kind: "publish"; event: PublishEvent };

/** Carries this process's announcements to the others and theirs back (`pg-relay.ts`); none with sqlite. */
export interface BusRelay {
  send(message: BusMessage): void;
  /** Settles once what was sent so far has reached the others' queue; undefined when nothing is outstanding. */
  sent(): Promise<void> | undefined;
  /** True once everything the others announced before the call has been received; false if that cannot be known now. */
  caughtUp(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Fan-out of changes: services announce here after they commit; the WebSocket hub, the signed-in
 * users cache and the metrics listen. Listeners in this process hear an announcement at once, before
 * the call returns; with a relay, the other processes hear it shortly after.
 */
export class EventBus {
  private readonly emitter = new EventEmitter().setMaxListeners(0);
  private relay: BusRelay | undefined;

  /** From now on announcements also go out through `relay`, which hands what others announce to `receive`. */
  useRelay(relay: BusRelay): void {
    this.relay = relay;
  }

  async close(): Promise<void> {
    await this.relay?.close();
    this.relay = undefined;
  }

  resourceChanged(change: ResourceChange): void {
    if (change.ids.length === 0) return;
    this.announce({ kind: "resource", change });
  }

  onResourceChanged(listener: (change: ResourceChange) => void): () => void {
    this.emitter.on("resource", listener);
    return () => this.emitter.off("resource", listener);
  }

  /**
   * A user's row changed (access, role, password, session generation, deletion); announced after the
   * change is committed. Whatever holds that user in memory (signed-in users, live sessions) drops it.
   * Every `users` resource change is also a user change.
   */
  userChanged(uid: string): void {
    this.announce({ kind: "user", uid });
  }

  onUserChanged(listener: (uid: string) => void): () => void {
    this.emitter.on("user", listener);
    return () => this.emitter.off("user", listener);
  }

  publishEvent(event: PublishEvent): void {
    this.announce({ kind: "publish", event });
  }

  onPublishEvent(listener: (event: PublishEvent) => void): () => void {
    this.emitter.on("publish", listener);
    return () => this.emitter.off("publish", listener);
  }

  /**
   * The relay lost announcements (its connection to the database came back after a break): whatever
   * is kept in memory on the strength of announcements must be dropped.
   */
  announcementsLost(): void {
    this.emitter.emit("lost");
  }

  onAnnouncementsLost(listener: () => void): () => void {
    this.emitter.on("lost", listener);
    return () => this.emitter.off("lost", listener);
  }

  /**
   * Settles once this process's announcements so far have reached every other process's queue, so
   * an answer given after it can be followed by a request to another process that already knows.
   * Undefined when there is nothing to wait for (always without a relay).
   */
  sent(): Promise<void> | undefined {
    return this.relay?.sent();
  }

  /** True when there are no other processes to hear from (no relay): memory is current without asking. */
  get alone(): boolean {
    return !this.relay;
  }

  /**
   * Whether this process has heard every announcement the others made before this call: `true` at
   * once without a relay (one process); with one, after a round trip to the database; false while
   * that cannot be known (the relay's connection is down), so memory must not be trusted.
   */
  caughtUp(): true | Promise<boolean> {
    return this.relay ? this.relay.caughtUp() : true;
  }

  private announce(message: BusMessage): void {
    this.receive(message);
    this.relay?.send(message);
  }

  /** To this process's listeners, with what follows from the message (derived changes are never relayed). */
  receive(message: BusMessage): void {
    if (message.kind === "user") {
      this.emitter.emit("user", message.uid);
    } else if (message.kind === "publish") {
      this.emitter.emit("publish", message.event);
    } else {
      const { change } = message;
      // First, so whoever reacts to the announcement below reads the user afresh.
      if (change.resource === "users") for (const uid of change.ids) this.emitter.emit("user", String(uid));
      this.emitter.emit("resource", change);
      if (COUNTED_ON_THE_DASHBOARD.has(change.resource) && change.type !== "updated") {
        this.emitter.emit("resource", {
          resource: "dashboard",
          type: "updated",
          ids: ["stats"],
        } satisfies ResourceChange);
      }
    }
  }
}
