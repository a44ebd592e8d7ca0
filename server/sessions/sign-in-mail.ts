import type { Request } from "express";
import type { AppContext } from "../context";
import type { MailRoute } from "../users/access-mail";
import type { SessionClient } from "../auth/sessions";
import { knownPlaces, rememberPlace } from "./sign-in-places.repository";
import { describeUserAgent } from "./user-agent";

/** Where a request comes from, as its session records it. */
export const sessionClientOf = (req: Request): SessionClient => ({
  userAgent: req.get("user-agent") ?? null,
  address: req.ip ?? null,
});

/**
 * Notes the place (address) a sign-in came from, and mails the user when it is somewhere new: the
 * browser (or program) has no device cookie of the account, the account has signed in before
 * (a known place), and never from this address. The account's first sign-in, a script signing in
 * again from where it always does, and another browser at the same desk are not news. The browser
 * is not compared: one person uses several at one address, and a stranger's differs at another
 * anyway. Places outlive sessions, so signing out everywhere does not make the next sign-in a first.
 * Never fails the sign-in: a failing step is logged and sends nothing.
 */
export async function noteSignInPlace(
  ctx: AppContext,
  route: MailRoute,
  user: { uid: string; email: string },
  client: SessionClient,
  from: { device: boolean },
): Promise<void> {
  try {
    const address = client.address?.slice(0, 64);
    if (!address) return;
    const known = await knownPlaces(ctx.db, user.uid);
    await rememberPlace(ctx.db, user.uid, address);
    if (!from.device && known.length > 0 && !known.includes(address)) mailNewBrowserSignIn(ctx, route, user, client);
  } catch (err) {
    ctx.logger.error({ uid: user.uid, err: (err as Error).message }, "new sign-in check failed");
  }
}

/**
 * Tells the user of a sign-in from somewhere new (noteSignInPlace): a stolen password used elsewhere
 * does not go unnoticed. Sent after the answer, never failing it.
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
    `Your Photodrop account ${user.email} was just signed in to from an address it was not signed in from before:`,
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
