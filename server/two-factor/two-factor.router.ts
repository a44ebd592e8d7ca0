import { Router } from "express";
import type { AppContext } from "../context";
import { currentUser, requireSignIn } from "../http/authenticate";
import { authRateLimits, SIGN_IN } from "../http/rate-limit";
import { trustedOrigin } from "../http/request-origin";
import { parseBody } from "../http/validate";
import { createMailer } from "../mail/mailer";
import { confirmTwoFactorSchema, disableTwoFactorSchema } from "./two-factor.schema";
import {
  confirmEnrolment,
  disableTwoFactor,
  regenerateRecoveryCodes,
  resetTwoFactorAsAdmin,
  startEnrolment,
  twoFactorStatus,
} from "./two-factor.service";

/** /api/users/me/two-factor: one's own authenticator-app sign-in and recovery codes. */
export function twoFactorRouter(ctx: AppContext): Router {
  const router = Router();
  const limits = authRateLimits(ctx);

  router.get("/", async (req, res) => {
    res.json(await twoFactorStatus(ctx, currentUser(req).uid));
  });

  router.post("/", async (req, res) => {
    res.json(await startEnrolment(ctx, currentUser(req)));
  });

  router.post("/confirm", async (req, res) => {
    const { code } = parseBody(confirmTwoFactorSchema, req.body);
    res.json({ recoveryCodes: await confirmEnrolment(ctx, currentUser(req).uid, code) });
  });

  router.post("/recovery-codes", async (req, res) => {
    res.json({ recoveryCodes: await regenerateRecoveryCodes(ctx, currentUser(req).uid) });
  });

  router.delete("/", async (req, res) => {
    const user = currentUser(req);
    const proof = parseBody(disableTwoFactorSchema, req.body ?? {});
    // A stolen access token must not make this a way to guess the password or codes unbudgeted.
    const attempt = await limits.forAccount(SIGN_IN, user.email, req.ip);
    await disableTwoFactor(ctx, user.uid, proof);
    await attempt.succeeded();
    res.status(204).end();
  });

  return router;
}

/** DELETE /api/users/:uid/two-factor: an admin turns someone's two-factor off (lost phone and codes). */
export function adminTwoFactorRouter(ctx: AppContext): Router {
  const router = Router();
  const mailer = createMailer(ctx.config.mail, ctx.logger);

  // Weakening someone's sign-in is a person's act, not a script's: API tokens are refused.
  router.delete("/:uid/two-factor", requireSignIn, async (req, res) => {
    const mail = { mailer, origin: trustedOrigin(req, ctx.config) };
    await resetTwoFactorAsAdmin(ctx, currentUser(req), String(req.params.uid), mail);
    res.status(204).end();
  });

  return router;
}
