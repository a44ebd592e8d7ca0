import type { Role } from "../../api/types";
import type { AppContext } from "../context";
import { userForToken } from "../http/authenticate";
import { SessionEndedError } from "../sessions/session-ended";

interface Watched {
  uid: string;
  /** Re-checked like a bearer token at every look, so an expired or voided token ends the watch. */
  token: string;
  hasAccess: boolean;
  role: Role;
}

type Send = (event: string, data: unknown) => void;

/**
 * A socket's view of its own user's access (`subscribe-to-access`). Unlike every other
 * subscription it is open to users who are not approved: the request-access screen waits on it
 * to let the user in the moment an admin approves, and an open app falls back when access is
 * revoked. It only ever tells a user about themself.
 */
export class AccessWatch {
  private watched: Watched | undefined;

  constructor(
    private readonly ctx: AppContext,
    private readonly send: Send,
    private readonly errors: { required: string; failed: string },
    /** Called when a client presents a token that does not verify (counted like a failed sign-in). */
    private readonly onRefusedToken: () => Promise<void>,
    /** Called when the watched token's sign-in was ended (the socket closes). */
    private readonly onSessionEnded: () => void = () => {},
  ) {}

  get uid(): string | undefined {
    return this.watched?.uid;
  }

  async start(token: string | undefined): Promise<void> {
    if (!token) return this.send("error", { message: this.errors.required });
    const user = await userForToken(this.ctx, token).catch(() => undefined);
    if (!user) {
      this.watched = undefined;
      this.send("error", { message: this.errors.failed });
      return this.onRefusedToken();
    }
    this.watched = { uid: user.uid, token, hasAccess: user.hasAccess, role: user.role };
    this.send("subscribed", { access: { hasAccess: user.hasAccess, role: user.role } });
  }

  stop(): void {
    this.watched = undefined;
    this.send("unsubscribed", { access: true });
  }

  /** Reads the user again; a change of access or role is sent as `access-changed`. */
  async recheck(): Promise<void> {
    const watched = this.watched;
    if (!watched) return;
    const user = await userForToken(this.ctx, watched.token).catch((err: unknown) => {
      if (err instanceof SessionEndedError) this.onSessionEnded();
      return undefined;
    });
    if (this.watched !== watched) return;
    if (!user) {
      this.watched = undefined;
      return this.send("error", { message: this.errors.failed });
    }
    if (user.hasAccess === watched.hasAccess && user.role === watched.role) return;
    watched.hasAccess = user.hasAccess;
    watched.role = user.role;
    this.send("access-changed", { hasAccess: user.hasAccess, role: user.role });
  }
}
