import type { AppContext } from "../context";
import { mailUnderWay, type Mailer } from "../mail/mailer";
import { approvedAdminEmails } from "./users.repository";

/** How a mail reaches out of band: the mailer, and the absolute origin for links (none when untrusted). */
export interface MailRoute {
  mailer: Mailer;
  origin: string | undefined;
}

const linkLine = (origin: string | undefined, path: string, without: string) => (origin ? `${origin}${path}` : without);

/**
 * Tells every approved admin that someone asked for access. Sent after the answer and never
 * failing it: a mail that cannot go out is logged (addresses and subject, no body).
 */
export function mailAccessRequest(
  ctx: AppContext,
  route: MailRoute,
  requester: { uid: string; email: string; displayName: string | null },
  message: string | null,
): void {
  const work = async () => {
    const admins = await approvedAdminEmails(ctx.db);
    const who = requester.displayName ? `${requester.displayName} <${requester.email}>` : requester.email;
    const text = [
      `${who} asked for access to Photodrop.`,
      "",
      message ? `Their message:\n\n${message}` : "They left no message.",
      "",
      "To approve or refuse the request, open Users:",
      linkLine(route.origin, "/users", "sign in to Photodrop and open Users."),
      "",
    ].join("\n");
    await Promise.all(
      admins.map((to) =>
        route.mailer
          .send({ to, subject: `Access request from ${requester.email}`, text })
          .catch((err: Error) =>
            ctx.logger.error({ uid: requester.uid, to, err: err.message }, "access request e-mail could not be sent"),
          ),
      ),
    );
  };
  void mailUnderWay(
    ctx.config.mail,
    work().catch((err: Error) =>
      ctx.logger.error({ uid: requester.uid, err: err.message }, "access request e-mails could not be prepared"),
    ),
  );
}

/** Tells a user their access was approved, with a sign-in link; same failure rule as above. */
export function mailApproval(ctx: AppContext, route: MailRoute, user: { uid: string; email: string }): void {
  const text = [
    `Your Photodrop account ${user.email} has been approved: you can now use Photodrop.`,
    "",
    "Sign in here:",
    linkLine(route.origin, "/login", "open Photodrop in your browser and sign in."),
    "",
    "If Photodrop is already open, it lets you in by itself within a few seconds.",
    "",
  ].join("\n");
  route.mailer
    .send({ to: user.email, subject: "Your Photodrop access is approved", text })
    .catch((err: Error) => ctx.logger.error({ uid: user.uid, err: err.message }, "approval e-mail could not be sent"));
}
