import type { Request } from "express";
import type { AppContext } from "../context";
import type { MailRoute } from "../users/access-mail";
import type { SessionClient } from "../auth/sessions";
import { describeUserAgent } from "./user-agent";

/** Where a request comes from, as its session records it. */
export const sessionClientOf = (req: Request): SessionClient => ({
  userAgent: req.get("user-agent") ?? null,
  address: req.ip ?? null,
});

/**
 * Tells the user of a sign-in from a browser that never signed in to the account before (no device
 * cookie of it): a stolen password used elsewhere does not go unnoticed. Sent after the answer,
 * never failing it.
 */
export function mailNewBrowserSignIn(
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
