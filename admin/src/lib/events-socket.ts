import { freshAccessToken } from "../providers/http";

/**
 * The one WebSocket to `/events` (contract section 6), shared by the project page and the live
 * provider. It connects on the first subscription, re-sends every subscription with a fresh token
 * after a reconnect or a token refresh, and closes when nobody listens any more.
 */
export interface EventFrame {
  event: string;
  data: Record<string, unknown>;
}

export type ConnectionState = "connecting" | "open" | "lost" | "failed";

type FrameListener = (frame: EventFrame) => void;
type StateListener = (state: ConnectionState) => void;

// Spec section 9: a network failure is retried after 30 s, doubling up to 16 minutes.
const BACKOFF_START_MS = 30_000;
const BACKOFF_CAP_MS = 16 * 60_000;
// Often enough to re-send subscriptions before an access token expires (it is refreshed 5 minutes,
// or half its lifetime, before expiry); reading the stored session costs nothing.
const TOKEN_CHECK_MS = 15_000;

/** Milliseconds before reconnect attempt `attempt` (0-based): 30 s doubling up to 16 min. */
export function reconnectDelay(attempt: number): number {
  return Math.min(BACKOFF_START_MS * 2 ** Math.max(0, attempt), BACKOFF_CAP_MS);
}

class EventsSocket {
  private socket: WebSocket | null = null;
  private state: ConnectionState = "connecting";
  private retries = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private tokenTimer: ReturnType<typeof setInterval> | null = null;
  private sentToken: string | null = null;
  private readonly projects = new Map<number, number>();
  private readonly resources = new Map<string, number>();
  /** How many screens follow the user's own access (`subscribe-to-access`, open before approval). */
  private accessWatchers = 0;
  private readonly frameListeners = new Set<FrameListener>();
  private readonly stateListeners = new Set<StateListener>();

  /** Follows one project's publish events; the returned function stops following it. */
  subscribeProject(projectId: number): () => void {
    const count = this.projects.get(projectId) ?? 0;
    this.projects.set(projectId, count + 1);
    if (count === 0) void this.sendSubscriptions({ projectIds: [projectId], resources: [] });
    this.ensureConnected();
    return () => {
      const left = (this.projects.get(projectId) ?? 1) - 1;
      if (left > 0) return void this.projects.set(projectId, left);
      this.projects.delete(projectId);
      this.send({ event: "unsubscribe-from-project", data: { projectId } });
      this.closeWhenIdle();
    };
  }

  /** Follows `resource-changed` frames of these resources (clients, projects, ...). */
  subscribeResources(names: string[]): () => void {
    const added = names.filter((name) => {
      const count = this.resources.get(name) ?? 0;
      this.resources.set(name, count + 1);
      return count === 0;
    });
    if (added.length) void this.sendSubscriptions({ projectIds: [], resources: added });
    this.ensureConnected();
    return () => {
      const removed = names.filter((name) => {
        const left = (this.resources.get(name) ?? 1) - 1;
        if (left > 0) this.resources.set(name, left);
        else this.resources.delete(name);
        return left <= 0;
      });
      if (removed.length) this.send({ event: "unsubscribe-from-resources", data: { resources: removed } });
      this.closeWhenIdle();
    };
  }

  /** Follows the signed-in user's own access: `access-changed` frames when it is approved or revoked. */
  watchAccess(): () => void {
    this.accessWatchers += 1;
    if (this.accessWatchers === 1) void this.sendSubscriptions({ projectIds: [], resources: [], access: true });
    this.ensureConnected();
    let stopped = false;
    return () => {
      if (stopped) return;
      stopped = true;
      this.accessWatchers -= 1;
      if (this.accessWatchers === 0) this.send({ event: "unsubscribe-from-access", data: {} });
      this.closeWhenIdle();
    };
  }

  onFrame(listener: FrameListener): () => void {
    this.frameListeners.add(listener);
    return () => this.frameListeners.delete(listener);
  }

  onState(listener: StateListener): () => void {
    this.stateListeners.add(listener);
    listener(this.state);
    return () => this.stateListeners.delete(listener);
  }

  private get idle() {
    return this.projects.size === 0 && this.resources.size === 0 && this.accessWatchers === 0;
  }

  private ensureConnected() {
    if (this.socket || this.retryTimer) return;
    this.connect();
  }

  private connect() {
    this.retryTimer = null;
    const protocol = window.location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${protocol}://${window.location.host}/events`);
    this.socket = socket;
    this.setState("connecting");
    let opened = false;
    socket.onopen = () => {
      opened = true;
      this.retries = 0;
      this.setState("open");
      this.sentToken = null;
      void this.sendSubscriptions({
        projectIds: [...this.projects.keys()],
        resources: [...this.resources.keys()],
        access: true,
      });
      this.tokenTimer ??= setInterval(() => void this.refreshSubscriptionsIfTokenChanged(), TOKEN_CHECK_MS);
    };
    socket.onmessage = (message) => this.dispatch(message.data);
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.idle) return;
      this.setState(opened ? "lost" : "failed");
      this.scheduleReconnect();
    };
  }

  /** The network is back (the browser says so): connect at once instead of waiting out the backoff. */
  reconnectNow() {
    if (this.socket || !this.retryTimer) return;
    clearTimeout(this.retryTimer);
    this.connect();
  }

  private scheduleReconnect() {
    const delay = reconnectDelay(this.retries);
    this.retries += 1;
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  private closeWhenIdle() {
    if (!this.idle) return;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.tokenTimer) clearInterval(this.tokenTimer);
    this.retryTimer = null;
    this.tokenTimer = null;
    const socket = this.socket;
    this.socket = null;
    socket?.close();
  }

  private dispatch(raw: unknown) {
    let frame: EventFrame;
    try {
      frame = JSON.parse(String(raw)) as EventFrame;
    } catch {
      return;
    }
    if (typeof frame?.event !== "string") return;
    frame.data ??= {};
    // The subscriptions ended with the token they were made with; a newer token renews them.
    if (frame.event === "error" && frame.data.message === "Failed to authenticate")
      void this.refreshSubscriptionsIfTokenChanged();
    for (const listener of this.frameListeners) listener(frame);
  }

  private setState(state: ConnectionState) {
    this.state = state;
    for (const listener of this.stateListeners) listener(state);
  }

  private send(frame: EventFrame): boolean {
    if (this.socket?.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(frame));
    return true;
  }

  private async sendSubscriptions({
    projectIds,
    resources,
    access = false,
  }: {
    projectIds: number[];
    resources: string[];
    access?: boolean;
  }) {
    if (this.socket?.readyState !== WebSocket.OPEN) return;
    let token: string | null = null;
    try {
      token = await freshAccessToken();
    } catch (error) {
      console.error("Failed to get an access token for live events", error);
    }
    // Without a token the server answers 'Authentication required', which the pages show.
    const data = token ? { token } : {};
    for (const projectId of projectIds) {
      if (this.projects.has(projectId)) this.send({ event: "subscribe-to-project", data: { projectId, ...data } });
    }
    const current = resources.filter((name) => this.resources.has(name));
    if (current.length) this.send({ event: "subscribe-to-resources", data: { resources: current, ...data } });
    if (access && this.accessWatchers > 0) this.send({ event: "subscribe-to-access", data });
    if (token) this.sentToken = token;
  }

  /** The server ends a subscription when the token it was made with expires: renew it in time. */
  private async refreshSubscriptionsIfTokenChanged() {
    let token: string | null;
    try {
      token = await freshAccessToken();
    } catch {
      return;
    }
    if (token && token !== this.sentToken) {
      await this.sendSubscriptions({
        projectIds: [...this.projects.keys()],
        resources: [...this.resources.keys()],
        access: true,
      });
    }
  }
}

export const eventsSocket = new EventsSocket();
// Absent where this module is loaded without a page (unit tests of its pure parts).
if (typeof window !== "undefined") window.addEventListener("online", () => eventsSocket.reconnectNow());
