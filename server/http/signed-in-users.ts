import type { ApiTokenScope, User } from "../../api/types";
import type { EventBus } from "../events/bus";

/** Who a bearer token speaks for: the user as stored now, and for an API token its id and scope. */
export interface Credentials {
  user: User;
  apiToken?: { id: number; scope: ApiTokenScope };
  /** A sign-in's session (server/sessions), when its access token names one. */
  sessionId?: string;
}

/** However quiet the bus, a cached sign-in is checked against the database again after this long. */
export const SIGNED_IN_USER_TTL_MS = 5_000;
const MAX_ENTRIES = 20_000;

interface Entry {
  uid: string;
  credentials: Credentials;
  until: number;
}

/**
 * Verified access and API tokens and the user each resolved to, so a call needs neither the
 * signature check (or the API token's row) nor the user's row. An entry dies with its token, after
 * SIGNED_IN_USER_TTL_MS, or as soon as the bus announces a change of its user (an API token deleted
 * is announced as a change of its owner).
 */
export class SignedInUsers {
  private readonly byToken = new Map<string, Entry>();
  private readonly tokensOfUser = new Map<string, Set<string>>();
  /** Bumped on every change of a user: a lookup that started before a change must not store what it read. */
  private readonly versions = new Map<string, number>();

  constructor(events: EventBus) {
    events.onUserChanged((uid) => this.forget(uid));
  }

  get(token: string, now = Date.now()): Credentials | undefined {
    const entry = this.byToken.get(token);
    if (!entry) return undefined;
    if (now < entry.until) return entry.credentials;
    this.drop(token, entry.uid);
    return undefined;
  }

  version(uid: string): number {
    return this.versions.get(uid) ?? 0;
  }

  /** Keeps the user read at `version` unless the user changed since; never beyond the token's own expiry. */
  set(token: string, credentials: Credentials, tokenExpiresAt: number, version: number, now = Date.now()): void {
    const { user } = credentials;
    if (this.version(user.uid) !== version) return;
    const until = Math.min(tokenExpiresAt, now + SIGNED_IN_USER_TTL_MS);
    if (until <= now) return;
    if (this.byToken.size >= MAX_ENTRIES) this.sweep(now);
    this.byToken.set(token, { uid: user.uid, credentials, until });
    let tokens = this.tokensOfUser.get(user.uid);
    if (!tokens) this.tokensOfUser.set(user.uid, (tokens = new Set()));
    tokens.add(token);
  }

  forget(uid: string): void {
    this.versions.set(uid, this.version(uid) + 1);
    for (const token of this.tokensOfUser.get(uid) ?? []) this.byToken.delete(token);
    this.tokensOfUser.delete(uid);
  }

  private drop(token: string, uid: string): void {
    this.byToken.delete(token);
    const tokens = this.tokensOfUser.get(uid);
    tokens?.delete(token);
    if (tokens?.size === 0) this.tokensOfUser.delete(uid);
  }

  /** Removes expired entries; if all are young (a flood of distinct tokens), starts afresh. */
  private sweep(now: number): void {
    for (const [token, entry] of this.byToken) if (now >= entry.until) this.drop(token, entry.uid);
    if (this.byToken.size >= MAX_ENTRIES) {
      this.byToken.clear();
      this.tokensOfUser.clear();
    }
  }
}

const perBus = new WeakMap<EventBus, SignedInUsers>();

/** One cache per event bus, i.e. per application context. */
export function signedInUsers(events: EventBus): SignedInUsers {
  let cache = perBus.get(events);
  if (!cache) perBus.set(events, (cache = new SignedInUsers(events)));
  return cache;
}
