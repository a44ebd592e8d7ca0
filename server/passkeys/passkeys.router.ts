import { Router, type Request, type Response } from "express";
import type { AppContext } from "../context";
import { currentUser } from "../http/authenticate";
import { ValidationError } from "../http/errors";
import { authRateLimits, SIGN_IN } from "../http/rate-limit";
import { parseBody, parseId } from "../http/validate";
import type { Session } from "../../api/types";
import { knownDevice } from "../auth/device-cookie";
import { sessionClientOf } from "../sessions/sign-in-mail";
import { createMailer } from "../mail/mailer";
import { trustedOrigin } from "../http/request-origin";
import { addPasskeySchema, passkeyProofSchema, passkeySignInSchema, renamePasskeySchema } from "./passkeys.schema";
import { addPasskey, passkeysOf, registrationOptions, removeOwnPasskey, renameOwnPasskey } from "./passkeys.service";
import { completePasskeySignIn, passkeySignInOptions } from "./passkey-sign-in";
import { passkeySupportOf, type RelyingParty } from "./relying-party";
import { proveItIsTheUser } from "./passkey-proof";
import { mailPasskeyAdded } from "./passkey-mail";

/** The relying party of this request, or a 400 with the reason the page shows (plain HTTP, an IP address). */
function relyingPartyOf(ctx: AppContext, req: Request): RelyingParty {
  const support = passkeySupportOf(req, ctx.config);
  if (!support.offered) throw new ValidationError(support.reason);
  return support.relyingParty;
}

/** /api/users/me/passkeys: one's own passkeys. */
export function passkeysRouter(ctx: AppContext): Router {
  const router = Router();
  const limits = authRateLimits(ctx);
  const mailer = createMailer(ctx.config.mail, ctx.logger);

  router.get("/", async (req, res) => {
    res.json(await passkeysOf(ctx, currentUser(req).uid));
  });

  router.post("/registration-options", async (req, res) => {
    const user = currentUser(req);
    const relyingParty = relyingPartyOf(ctx, req);
    const proof = parseBody(passkeyProofSchema, req.body ?? {});
    // Counted like a wrong password: a stolen session must not become a way to guess it unbudgeted.
    const attempt = await limits.forAccount(SIGN_IN, user.email, req.ip);
    await proveItIsTheUser(ctx, user.uid, proof);
    await attempt.succeeded();
    res.json(await registrationOptions(ctx, user, relyingParty));
  });

  router.post("/", async (req, res) => {
    const body = parseBody(addPasskeySchema, req.body);
    const user = currentUser(req);
    const passkey = await addPasskey(ctx, user.uid, body);
    res.status(201).json(passkey);
    const route = { mailer, origin: trustedOrigin(req, ctx.config) };
    mailPasskeyAdded(ctx, route, user, passkey.name, sessionClientOf(req));
  });

  router.patch("/:id", async (req, res) => {
    const { name } = parseBody(renamePasskeySchema, req.body);
    res.json(await renameOwnPasskey(ctx, currentUser(req).uid, parseId(req.params.id), name));
  });

  router.delete("/:id", async (req, res) => {
    await removeOwnPasskey(ctx, currentUser(req).uid, parseId(req.params.id));
    res.status(204).end();
  });

  return router;
}

/** How the auth router answers a finished sign-in (the session, the device cookie, the new-browser mail). */
export type SignedIn = (req: Request, res: Response, session: Session, device: string | undefined) => Promise<void>;

/** POST /api/auth/passkey/options and /api/auth/passkey: signing in with a passkey alone. */
export function addPasskeySignInRoutes(router: Router, ctx: AppContext, signedIn: SignedIn): void {
  const limits = authRateLimits(ctx);

  router.post("/passkey/options", async (req, res) => {
    await limits.byIp("passkey-options", req.ip);
    res.json(await passkeySignInOptions(ctx, relyingPartyOf(ctx, req)));
  });

  router.post("/passkey", async (req, res) => {
    await limits.byIp(SIGN_IN, req.ip);
    const body = parseBody(passkeySignInSchema, req.body);
    const deviceOf = (uid: string) => knownDevice(ctx.db, req, uid);
    const { session, device } = await completePasskeySignIn(ctx, body, {
      ip: req.ip,
      deviceOf,
      client: sessionClientOf(req),
    });
    await signedIn(req, res, session, device);
  });
}
