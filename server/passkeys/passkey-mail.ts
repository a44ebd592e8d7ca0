import type { AppContext } from "../context";
import type { MailRoute } from "../users/access-mail";
import type { SessionClient } from "../auth/sessions";
import { describeUserAgent } from "../sessions/user-agent";

/**
 * Tells the user a passkey was added: it signs in alone, so one added by someone else holding a
 * session must not go unnoticed. Sent after the answer and never failing it; a failure is logged.
 */
export function mailPasskeyAdded(
  ctx: AppContext,
  route: MailRoute,
  user: { uid: string; email: string },
  passkeyName: string,
  client: SessionClient,
): void {
  const { browser, system } = describeUserAgent(client.userAgent);
  const what = [browser ?? "an unknown browser or program", system && `on ${system}`].filter(Boolean).join(" ");
  const text = [
    `A passkey named "${passkeyName}" was just added to your Photodrop account ${user.email}`,
    `from ${what}, from the address ${client.address ?? "unknown"}, at ${new Date().toISOString()}.`,
    "It signs in to the account on its own.",
    "",
    "If this was you, there is nothing to do. If not, sign in, remove the passkey, change your password and sign",
    "every other device out in your user menu → Security:",
    route.origin ? `${route.origin}/` : "open Photodrop in your browser.",
    "",
  ].join("\n");
  route.mailer
    .send({ to: user.email, subject: "A passkey was added to your Photodrop account", text })
    .catch((err: Error) =>
      ctx.logger.error({ uid: user.uid, err: err.message }, "passkey-added e-mail could not be sent"),
    );
}
