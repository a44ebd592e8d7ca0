import type { IncomingMessage, ServerOptions, ServerResponse } from "node:http";
import { bodyTimeout } from "./http/body-timeout";
import express from "express";
import type { AppContext } from "./context";
import { authRouter } from "./auth/auth.router";
import { meRouter } from "./users/me.router";
import { usersRouter } from "./users/users.router";
import { adminTwoFactorRouter, twoFactorRouter } from "./two-factor/two-factor.router";
import { requireTwoFactorEnrolment } from "./two-factor/require-two-factor";
import { sessionsRouter } from "./sessions/sessions.router";
import { passkeysRouter } from "./passkeys/passkeys.router";
import { clientsRouter } from "./clients/clients.router";
import { contactsRouter } from "./contacts/contacts.router";
import { projectsRouter } from "./projects/projects.router";
import { publishRouter } from "./publish/publish.router";
import { coverRouter } from "./projects/cover.router";
import { publishedRouter } from "./publish/published.router";
import { deliveryRouter } from "./delivery/delivery.router";
import { deliveryFiles } from "./delivery/delivery-files";
import { deliverySettingsRouter } from "./delivery/delivery-settings.router";
import { attachmentsRouter } from "./attachments/attachments.router";
import { attachmentFilesRouter } from "./attachments/attachment-files.router";
import { dashboardRouter } from "./dashboard/dashboard.router";
import { authenticate, requireAdmin, requireApproved, requireSignIn } from "./http/authenticate";
import { apiTokensRouter, myApiTokensRouter } from "./api-tokens/api-tokens.router";
import { apiNotFound, errorMiddleware } from "./http/error-middleware";
import { recordedSecurityHeaders, securityHeaders } from "./http/security";
import { clientAddressOf, trustProxyOf } from "./http/client-address";
import { answerAfterAnnouncements } from "./http/answer-after-announcements";
import { healthRouter } from "./ops/health.router";
import { metricsRouter } from "./ops/metrics.router";
import { observeRequests } from "./ops/request-observer";
import { serveWebApp } from "./web/web-app";
import { activityRouter } from "./activity/activity.router";
import { notificationsRouter } from "./notifications/notifications.router";
import { remindersRouter } from "./reminders/reminders.router";
import { recipientLinkRouter } from "./sending/recipient-link.router";
import { sendingRouter } from "./sending/sending.router";
import { unsubscribeRouter } from "./unsubscribe/unsubscribe.router";
import { studioLogoRouter, studioRouter } from "./studio/studio.router";
import { favouritesRouter } from "./favourites/favourites.router";
import { expressBornServerOptions } from "./http/express-born";
import { renditionQueue } from "./attachments/renditions.service";
import { studioFavouritesRouter } from "./favourites/studio-favourites.router";
import { webhooksRouter } from "./webhooks/webhooks.router";
import { openApiRouter } from "./openapi/openapi.router";

/**
 * The whole HTTP application as a request listener; no listen() here, so tests drive it with
 * supertest. `serverOptions` are what `http.createServer` takes to serve it fastest (see
 * expressBornServerOptions).
 */
export type AppHandler = ((req: IncomingMessage, res: ServerResponse) => void) & { serverOptions: ServerOptions };

/**
 * Express, behind the delivery files (a client's photos, thumbnails and ZIP), which are answered
 * first and without it (`server/delivery/delivery-files.ts`).
 */
export function createApp(ctx: AppContext): AppHandler {
  const app = express();
  app.disable("x-powered-by");
  app.set("query parser", "simple");
  // One compiled function: req.ip, the delivery files and the live socket read the client's address alike.
  const trust = trustProxyOf(ctx.config.trustProxy);
  app.set("trust proxy", trust);
  const security = {
    googleSignIn: Boolean(ctx.config.google),
    publicUrl: ctx.config.publicUrl,
    hstsIncludeSubDomains: ctx.config.hstsIncludeSubDomains,
  };
  app.use(observeRequests(ctx));
  app.use(securityHeaders(security));
  app.use(healthRouter(ctx), metricsRouter(ctx));

  const api = express.Router();
  api.use(bodyTimeout(ctx.config.bodyTimeoutSeconds));
  api.use(answerAfterAnnouncements(ctx.events));
  api.use(express.json({ limit: "1mb", strict: false }));
  api.use((_req, res, next) => {
    res.set("Cache-Control", "no-store");
    res.set("Access-Control-Expose-Headers", "X-Total-Count, ETag");
    next();
  });
  api.use("/auth", authRouter(ctx));
  api.use("/attachments", attachmentFilesRouter(ctx));
  api.use(openApiRouter());
  api.use(authenticate(ctx));
  api.use(requireTwoFactorEnrolment(ctx));
  api.use("/users/me", meRouter(ctx));
  api.use(requireApproved);
  api.use("/users/me/notifications", notificationsRouter(ctx));
  api.use("/users/me/tokens", requireSignIn, myApiTokensRouter(ctx));
  api.use("/users/me/two-factor", requireSignIn, twoFactorRouter(ctx));
  api.use("/users/me/sessions", requireSignIn, sessionsRouter(ctx));
  api.use("/users/me/passkeys", requireSignIn, passkeysRouter(ctx));
  api.use("/tokens", requireAdmin, requireSignIn, apiTokensRouter(ctx));
  api.use("/webhooks", requireAdmin, webhooksRouter(ctx));
  api.use("/users", requireAdmin, usersRouter(ctx), adminTwoFactorRouter(ctx));
  api.use("/clients", clientsRouter(ctx));
  api.use("/contacts", contactsRouter(ctx));
  // The list and records first: the others only answer /projects/:id/<something>.
  api.use("/projects", projectsRouter(ctx), sendingRouter(ctx), activityRouter(ctx), remindersRouter(ctx));
  api.use("/projects", studioFavouritesRouter(ctx), coverRouter(ctx), deliverySettingsRouter(ctx), publishRouter(ctx));
  api.use("/attachments", attachmentsRouter(ctx));
  api.use("/dashboard", dashboardRouter(ctx));
  api.use("/studio", studioRouter(ctx));
  api.use(apiNotFound);
  app.use("/api", api);

  app.use("/published", publishedRouter());
  app.use("/d", studioLogoRouter(ctx), recipientLinkRouter(ctx), favouritesRouter(ctx), deliveryRouter(ctx));
  app.use("/unsubscribe", unsubscribeRouter(ctx));
  serveWebApp(app);
  app.use(errorMiddleware(ctx.logger));

  const files = deliveryFiles(ctx, {
    baseHeaders: recordedSecurityHeaders(security, trust),
    clientAddress: (req) => clientAddressOf(req, trust),
  });
  const renditions = renditionQueue(ctx);
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    // A thumbnail answered at once is over before a background render could start.
    if (files.answerReady(req, res)) return;
    // Background renders (a backfill of previews) wait while anyone is being served.
    res.once("close", renditions.requestStarted());
    if (!files.serve(req, res)) app(req, res);
  };
  return Object.assign(handler, { serverOptions: expressBornServerOptions(app) });
}
