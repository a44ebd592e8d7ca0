import { EventEmitter } from "node:events";

export type ResourceName = "clients" | "contacts" | "projects" | "attachments" | "users" | "dashboard";

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

/** In-process fan-out: services announce changes here; the WebSocket hub relays them. */
export class EventBus {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  resourceChanged(change: ResourceChange): void {
    if (change.ids.length === 0) return;
    // First, so whoever reacts to the announcement below reads the user afresh.
    if (change.resource === "users") for (const uid of change.ids) this.userChanged(String(uid));
    this.emitter.emit("resource", change);
    if (COUNTED_ON_THE_DASHBOARD.has(change.resource) && change.type !== "updated") {
      this.emitter.emit("resource", {
        resource: "dashboard",
        type: "updated",
        ids: ["stats"],
      } satisfies ResourceChange);
    }
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
    this.emitter.emit("user", uid);
  }

  onUserChanged(listener: (uid: string) => void): () => void {
    this.emitter.on("user", listener);
    return () => this.emitter.off("user", listener);
  }

  publishEvent(event: PublishEvent): void {
    this.emitter.emit("publish", event);
  }

  onPublishEvent(listener: (event: PublishEvent) => void): () => void {
    this.emitter.on("publish", listener);
    return () => this.emitter.off("publish", listener);
  }
}
