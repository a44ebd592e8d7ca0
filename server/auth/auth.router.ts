import { Router, type Request, type Response } from "express";
import type { AppContext } from "../context";
import { NotFoundError } from "../http/errors";
import { authRateLimits, SIGN_IN } from "../http/rate-limit";
import { parseBody } from "../http/validate";
import { trustedOrigin } from "../http/request-origin";
import { createMailer } from "../mail/mailer";
import { googleSchema, loginSchema, resetConfirmSchema, resetRequestSchema, signupSchema } from "./auth.schema";
import { twoFactorSignInSchema } from "../two-factor/two-factor.schema";
import { noteSignInPlace, sessionClientOf } from "../sessions/sign-in-mail";
import type { Session } from "../../api/types";
import { completeTwoFactorSignIn } from "./two-factor-sign-in";
import { logIn, signUp } from "./auth.service";
import { knownDevice, setDeviceCookie } from "./device-cookie";
import { createGoogleVerifier, signInWithGoogle } from "./google-sign-in";
import { confirmPasswordReset, requestPasswordReset } from "./password-reset.service";
import { endSession, refreshSession } from "./sessions";
import { clearSessionCookie, refreshTokenOf, sendSession } from "./session-cookie";
import { publicJwks } from "./signing-keys";
import { addPasskeySignInRoutes } from "../passkeys/passkeys.router";
import { passkeySupportOf } from "../passkeys/relying-party";

/** Public identity calls under /api/auth (contract section 2). */
export function authRouter(ctx: AppContext): Router {
  const router = Router();
  const limits = authRateLimits(ctx);
  const ttl = ctx.config.refreshTokenTtl;
  const mailer = createMailer(ctx.config.mail, ctx.logger);
  const verifyGoogle = ctx.config.google ? createGoogleVerifier(ctx.config.google, ctx.logger) : undefined;

  const mailOf = (req: Request) => ({ mailer, origin: trustedOrigin(req, ctx.config) });

  /**
   * Answers a sign-in's session, renews the browser's device cookie, notes the address among the
   * account's places, and mails the user when a browser (or program) without that cookie signs in
   * from an address the account never signed in from.
   */
  const signedIn = async (req: Request, res: Response, session: Session, device: string | undefined) => {
    await setDeviceCookie(ctx.db, req, res, session.user.uid, device);
    await noteSignInPlace(ctx, mailOf(req), session.user, sessionClientOf(req), { device: Boolean(device) });
    sendSession(req, res, session, ttl);
  };

  router.get("/config", (req, res) => {
    const passkeys = passkeySupportOf(req, ctx.config);
    res.json({
      google: ctx.config.google ? { clientId: ctx.config.google.clientId } : null,
      passwordPolicy: ctx.config.passwordPolicy,
      // The web app refuses a larger file before sending any of it.
      maxUploadBytes: ctx.config.maxUploadBytes,
      // The address clients are sent (PUBLIC_URL), so the web app shows the links the mails carry.
      publicUrl: ctx.config.publicUrl ?? null,
      // Whether this page may offer passkeys (a secure context at the studio's address), and if not, why.
      passkeys: { offered: passkeys.offered, reason: passkeys.offered ? null : passkeys.reason },
    });
  });

  router.get("/jwks.json", async (_req, res) => {
    res.set("Cache-Control", "public, max-age=300");
    res.json(await publicJwks(ctx.db));
  });

  router.post("/signup", async (req, res) => {
    await limits.byIp("signup", req.ip);
    const body = parseBody(signupSchema, req.body);
    const session = await signUp(ctx, body, mailOf(req), sessionClientOf(req));
    await setDeviceCookie(ctx.db, req, res, session.user.uid);
    // The account's first place: later sign-ins from elsewhere are news (this one has nothing to mail).
    await noteSignInPlace(ctx, mailOf(req), session.user, sessionClientOf(req), { device: true });
    res.status(201);
    sendSession(req, res, session, ttl);
  });

  router.post("/login", async (req, res) => {
    await limits.byIp(SIGN_IN, req.ip);
    const body = parseBody(loginSchema, req.body);
    const deviceOf = (uid: string) => knownDevice(ctx.db, req, uid);
    const outcome = await logIn(ctx, body, { ip: req.ip, deviceOf, client: sessionClientOf(req) });
    if ("twoFactorRequired" in outcome) {
      res.json(outcome);
      return;
    }
    await signedIn(req, res, outcome.session, outcome.device);
  });

  router.post("/login/two-factor", async (req, res) => {
    await limits.byIp(SIGN_IN, req.ip);
    const body = parseBody(twoFactorSignInSchema, req.body);
    const deviceOf = (uid: string) => knownDevice(ctx.db, req, uid);
    const { session, device } = await completeTwoFactorSignIn(ctx, body, {
      ip: req.ip,
      deviceOf,
      client: sessionClientOf(req),
      mail: mailOf(req),
    });
    await signedIn(req, res, session, device);
  });

  addPasskeySignInRoutes(router, ctx, signedIn);

  router.post("/google", async (req, res) => {
    if (!verifyGoogle) throw new NotFoundError("Google sign-in is not enabled");
    await limits.byIp("google", req.ip);
    const body = parseBody(googleSchema, req.body);
    const session = await signInWithGoogle(ctx, verifyGoogle, body.credential, mailOf(req), sessionClientOf(req));
    await signedIn(req, res, session, await knownDevice(ctx.db, req, session.user.uid));
  });

  router.post("/refresh", async (req, res) => {
    await limits.byIp("refresh", req.ip);
    const { token, fromCookie } = refreshTokenOf(req);
    sendSession(req, res, await refreshSession(ctx, token, { grace: fromCookie }), ttl);
  });

  router.post("/logout", async (req, res) => {
    await endSession(ctx, refreshTokenOf(req).token);
    clearSessionCookie(req, res);
    res.status(204).end();
  });

  router.post("/password-reset", async (req, res) => {
    await limits.byIp("reset", req.ip);
    const body = parseBody(resetRequestSchema, req.body);
    // Its own budgets ("reset", not sign-in's): spending them never blocks signing in.
    await limits.forAccount("reset", body.email, req.ip);
    await requestPasswordReset(ctx, mailer, body.email, trustedOrigin(req, ctx.config));
    res.status(202).json({ message: "If an account exists for this e-mail, a reset link has been sent." });
  });

  router.post("/password-reset/confirm", async (req, res) => {
    await limits.byIp("reset-confirm", req.ip);
    const body = parseBody(resetConfirmSchema, req.body);
    await confirmPasswordReset(ctx, body.token, body.password);
    res.status(204).end();
  });

  return router;
}
