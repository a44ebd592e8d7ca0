import type { Request } from "express";
import type { AppContext } from "../context";
import type { Db } from "../db/database";
import type { MailRoute } from "../users/access-mail";
import type { SessionClient } from "../auth/sessions";
import type { Session } from "../../api/types";
import { familyOfRefreshToken } from "../auth/refresh-tokens.repository";
import { hashSecretToken } from "../auth/secret-tokens";
import { describeUserAgent } from "./user-agent";

/** Where a request comes from, as its session records it. */
export const sessionClientOf = (req: Request): SessionClient => ({
  userAgent: req.get("user-agent") ?? null,
  address: req.ip ?? null,
});

/**
 * Whether a sign-in without the account's device cookie comes from somewhere new: the account has
 * signed in before (a session row other than this one), and none of those came from this address.
 * The account's first sign-in, a script signing in again from where it always does, and the person
 * who signed up with a script opening the web app at the same desk are not news. The browser is not
 * compared: one person uses several at one address, and a stranger's differs at another anyway.
 */
async function isUnfamiliarPlace(db: Db, session: Session, client: SessionClient): Promise<boolean> {
  const current = await familyOfRefreshToken(db, hashSecretToken(session.refreshToken));
  const earlier = (await db("user_sessions")
    .where({ user_uid: session.user.uid })
    .whereNot({ id: current?.family ?? "" })
    .pluck("address")) as Array<string | null>;
  if (earlier.length === 0) return false;
  const address = client.address?.slice(0, 64) ?? null;
  return !earlier.includes(address);
}

/**
 * Mails the user about a sign-in without the account's device cookie from an unfamiliar place
 * (isUnfamiliarPlace). Never fails the sign-in: a failing check is logged and sends nothing.
 */
export async function mailUnfamiliarSignIn(
  ctx: AppContext,
  route: MailRoute,
  session: Session,
  client: SessionClient,
): Promise<void> {
  try {
    if (await isUnfamiliarPlace(ctx.db, session, client)) mailNewBrowserSignIn(ctx, route, session.user, client);
  } catch (err) {
    ctx.logger.error({ uid: session.user.uid, err: (err as Error).message }, "new sign-in check failed");
  }
}

/**
 * Tells the user of a sign-in from a browser that never signed in to the account before (no device
 * cookie of it): a stolen password used elsewhere does not go unnoticed. Sent after the answer,
 * never failing it.
 */
function mailNewBrowserSignIn(
  ctx: AppContext,
  route: MailRoute,
  user: { uid: string; email: string },
  client: SessionClient,
): void {
  const { browser, system } = describeUserAgent(client.userAgent);
  const what = [browser ?? "An unknown browser or program", system && `on ${system}`].filter(Boolean).join(" ");
  const text = [
    `Your Photodrop account ${user.email} was just signed in to from a browser it was not signed in from before:`,
    "",
    `${what}, from the address ${client.address ?? "unknown"}, at ${new Date().toISOString()}.`,
    "",
    "If this was you, there is nothing to do. If not, sign in, change your password and sign that device out in",
    "your user menu → Security:",
    route.origin ? `${route.origin}/` : "open Photodrop in your browser.",
    "",
  ].join("\n");
  route.mailer
    .send({ to: user.email, subject: "New sign-in to your Photodrop account", text })
    .catch((err: Error) =>
      ctx.logger.error({ uid: user.uid, err: err.message }, "new sign-in e-mail could not be sent"),
    );
}
