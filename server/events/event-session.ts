import { decodeJwt } from "jose";
import WebSocket from "ws";
import type { AppContext } from "../context";
import { credentialsFor, userForToken } from "../http/authenticate";
import { mustEnrolFirst, TWO_FACTOR_REQUIRED } from "../two-factor/require-two-factor";
import { AccessWatch } from "./access-watch";
import type { PublishEvent, ResourceChange, ResourceName } from "./bus";
import { parseClientFrame, type ClientFrame } from "./frames";
import { SessionEndedError } from "../sessions/session-ended";

export const AUTH_REQUIRED = "Authentication required";
export const AUTH_FAILED = "Failed to authenticate";
/** The close code of a socket whose sign-in was ended (signed out from the sessions list). */
export const SESSION_ENDED_CLOSE = 4403;
const MAX_PROJECTS_PER_SOCKET = 100;
/** Progress frames are dropped rather than queued for a client that cannot keep up. */
const SLOW_CLIENT_BYTES = 1024 * 1024;

interface Identity {
  uid: string;
  /** The token the client last sent: re-checked the way every HTTP call checks its bearer token. */
  token: string;
  isAdmin: boolean;
  /** When the token the client last sent expires (ms since epoch). */
  expiresAt: number;
}

/**
 * One socket's state: who it is (from the last token it sent), what it follows. Frames are
 * handled one after another so that "subscribe, unsubscribe" cannot finish in the wrong order.
 */
export class EventSession {
  alive = true;
  private identity: Identity | undefined;
  private readonly projects = new Set<number>();
  private readonly resources = new Set<ResourceName>();
  private pending: Promise<void> = Promise.resolve();
  /** The socket's own user's access, followed even before approval (see access-watch.ts). */
  readonly access: AccessWatch;

  constructor(
    private readonly ctx: AppContext,
    private readonly ws: WebSocket,
    private readonly replayProgress: (projectId: number) => number | undefined,
    /** Counts a token that did not verify against the address's sign-in budget; closes the socket once it is spent. */
    private readonly onRefusedToken: () => Promise<void>,
  ) {
    this.access = new AccessWatch(
      ctx,
      (event, data) => this.send(event, data),
      { required: AUTH_REQUIRED, failed: AUTH_FAILED },
      onRefusedToken,
      () => this.closeEndedSession(),
    );
  }

  get uid(): string | undefined {
    return this.identity?.uid;
  }

  receive(text: string): void {
    this.pending = this.pending
      .then(() => this.handle(text))
      .catch((err) => {
        this.ctx.logger.error({ err }, "events: frame handling failed");
        this.sendError("Internal error");
      });
  }

  send(event: string, data: unknown): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ event, data }));
  }

  sendError(message: string): void {
    this.send("error", { message });
  }

  deliverPublishEvent(event: PublishEvent): void {
    if (!this.projects.has(event.projectId) || !this.stillAuthorised()) return;
    if (event.type === "publish_progress" && this.ws.bufferedAmount > SLOW_CLIENT_BYTES) return;
    this.send("publish-event", event);
  }

  deliverResourceChange(change: ResourceChange): void {
    if (!this.resources.has(change.resource) || !this.stillAuthorised()) return;
    this.send("resource-changed", change);
  }

  /** Drops every subscription once the token has expired; the client may subscribe again with a new one. */
  stillAuthorised(now = Date.now()): boolean {
    if (!this.identity) return false;
    if (now < this.identity.expiresAt) return true;
    this.revoke();
    return false;
  }

  /**
   * Checks the token again as a bearer token is checked, user read afresh: revoked access or a
   * sign-out everywhere (password reset) drops everything, a lost admin role drops `users`.
   */
  async recheckUser(): Promise<void> {
    const identity = this.identity;
    if (!identity) return;
    const user = await userForToken(this.ctx, identity.token).catch((err: unknown) => {
      if (err instanceof SessionEndedError) this.closeEndedSession();
      return undefined;
    });
    if (this.identity !== identity) return;
    if (!user?.hasAccess) return this.revoke();
    identity.isAdmin = user.role === "admin";
    if (!identity.isAdmin) this.resources.delete("users");
  }

  /** The socket's sign-in was ended: it closes at once, whatever else it follows. */
  closeEndedSession(): void {
    this.forget();
    this.ws.close(SESSION_ENDED_CLOSE, "Session ended");
  }

  private revoke(): void {
    const hadSubscriptions = this.projects.size > 0 || this.resources.size > 0;
    this.forget();
    if (hadSubscriptions) this.sendError(AUTH_FAILED);
  }

  private forget(): void {
    this.identity = undefined;
    this.projects.clear();
    this.resources.clear();
  }

  private async handle(text: string): Promise<void> {
    const frame = parseClientFrame(text);
    if ("error" in frame) return this.sendError(frame.error);
    await this.dispatch(frame);
  }

  private async dispatch(frame: ClientFrame): Promise<void> {
    switch (frame.event) {
      case "subscribe-to-project": {
        const { projectId, token } = frame.data;
        if (!(await this.authenticate(token))) return;
        const exists = await this.ctx.db("projects").where({ id: projectId }).first("id");
        if (!exists) return this.sendError("Project not found");
        if (!this.projects.has(projectId) && this.projects.size >= MAX_PROJECTS_PER_SOCKET) {
          return this.sendError("Too many subscriptions");
        }
        this.projects.add(projectId);
        this.send("subscribed", { projectId });
        const progress = this.replayProgress(projectId);
        if (progress !== undefined)
          this.send("publish-event", { projectId, type: "publish_progress", data: { progress } });
        return;
      }
      case "unsubscribe-from-project":
        this.projects.delete(frame.data.projectId);
        this.send("unsubscribed", { projectId: frame.data.projectId });
        return;
      case "subscribe-to-resources": {
        const { resources, token } = frame.data;
        if (!(await this.authenticate(token))) return;
        if (resources.includes("users") && !this.identity?.isAdmin) return this.sendError("Admin access required");
        for (const resource of resources) this.resources.add(resource);
        this.send("subscribed", { resources: [...this.resources] });
        return;
      }
      case "unsubscribe-from-resources":
        for (const resource of frame.data.resources) this.resources.delete(resource);
        this.send("unsubscribed", { resources: frame.data.resources });
        return;
      case "subscribe-to-access":
        return this.access.start(frame.data.token);
      case "unsubscribe-from-access":
        return this.access.stop();
    }
  }

  /**
   * Every subscribe carries a token, verified like a bearer token and followed by a fresh read
   * of the user, so approval and revocation apply at once. A token of another user starts over.
   */
  private async authenticate(token: string | undefined): Promise<boolean> {
    if (!token) {
      this.sendError(AUTH_REQUIRED);
      return false;
    }
    const credentials = await credentialsFor(this.ctx, token).catch(() => undefined);
    if (!credentials) {
      this.sendError(AUTH_FAILED);
      await this.onRefusedToken();
      return false;
    }
    const { user } = credentials;
    if (!user.hasAccess) {
      this.sendError(AUTH_FAILED);
      return false;
    }
    if (await mustEnrolFirst(this.ctx, credentials)) {
      this.sendError(TWO_FACTOR_REQUIRED);
      return false;
    }
    // The token verified above, so its claims decode.
    const expiresAt = (decodeJwt(token).exp ?? 0) * 1000;
    if (this.identity && this.identity.uid !== user.uid) this.forget();
    this.identity = { uid: user.uid, token, isAdmin: user.role === "admin", expiresAt };
    return true;
  }
}
