import type { AppContext } from "../context";
import type { MailRoute } from "../users/access-mail";

const linkLine = (origin: string | undefined, path: string, without: string) => (origin ? `${origin}${path}` : without);

/** Sent after the answer and never failing it, like every staff mail: a failure is logged (no body). */
function send(ctx: AppContext, route: MailRoute, to: { uid: string; email: string }, subject: string, text: string) {
  route.mailer
    .send({ to: to.email, subject, text })
    .catch((err: Error) =>
      ctx.logger.error({ uid: to.uid, err: err.message }, `"${subject}" e-mail could not be sent`),
    );
}

const securityLink = (route: MailRoute) =>
  linkLine(route.origin, "/", "sign in to Photodrop and open your user menu → Security.");

export function mailRecoveryCodeUsed(
  ctx: AppContext,
  route: MailRoute,
  user: { uid: string; email: string },
  codesLeft: number,
): void {
  const text = [
    `Someone signed in to your Photodrop account ${user.email} with one of its recovery codes.`,
    "",
    `That code no longer works; ${codesLeft} of your recovery codes are left.`,
    "",
    "If this was not you, sign in, change your password, sign out every other device and make new recovery codes",
    "in Security:",
    securityLink(route),
    "",
  ].join("\n");
  send(ctx, route, user, "A recovery code was used to sign in to Photodrop", text);
}

export function mailTwoFactorReset(
  ctx: AppContext,
  route: MailRoute,
  user: { uid: string; email: string },
  passkeysRemoved: number,
): void {
  const passkeys =
    passkeysRemoved === 0
      ? []
      : [
          `The account's ${passkeysRemoved === 1 ? "passkey was" : `${passkeysRemoved} passkeys were`} removed too:` +
            " they no longer sign in.",
        ];
  const text = [
    `An admin turned off two-factor sign-in for your Photodrop account ${user.email}.`,
    ...passkeys,
    "",
    "You now sign in with your password alone. To turn two-factor sign-in on again or add a passkey, open Security:",
    securityLink(route),
    "",
    "If you did not ask for this, tell your studio's admin.",
    "",
  ].join("\n");
  send(ctx, route, user, "Two-factor sign-in was turned off for your Photodrop account", text);
}
