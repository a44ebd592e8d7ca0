import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import express, { type Express } from "express";
import type { AppContext } from "./context";
import { authRouter } from "./auth/auth.router";
import { meRouter } from "./users/me.router";
import { usersRouter } from "./users/users.router";
import { clientsRouter } from "./clients/clients.router";
import { contactsRouter } from "./contacts/contacts.router";
import { projectsRouter } from "./projects/projects.router";
import { publishRouter } from "./publish/publish.router";
import { publishedRouter } from "./publish/published.router";
import { deliveryRouter } from "./delivery/delivery.router";
import { deliverySettingsRouter } from "./delivery/delivery-settings.router";
import { attachmentsRouter } from "./attachments/attachments.router";
import { attachmentFilesRouter } from "./attachments/attachment-files.router";
import { dashboardRouter } from "./dashboard/dashboard.router";
import { authenticate, requireAdmin, requireApproved } from "./http/authenticate";
import { apiNotFound, errorMiddleware } from "./http/error-middleware";
import { securityHeaders } from "./http/security";
import { healthRouter } from "./ops/health.router";
import { metricsRouter } from "./ops/metrics.router";
import { observeRequests } from "./ops/request-observer";

const adminDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../admin/dist");

/** The whole HTTP application; no listen() here, so tests drive it with supertest. */
export function createApp(ctx: AppContext): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("query parser", "simple");
  app.set("trust proxy", ctx.config.trustProxy);
  app.use(observeRequests(ctx));
  app.use(securityHeaders({ googleSignIn: Boolean(ctx.config.google) }));
  app.use(healthRouter(ctx), metricsRouter(ctx));

  const api = express.Router();
  api.use(express.json({ limit: "1mb", strict: false }));
  api.use((_req, res, next) => {
    res.set("Cache-Control", "no-store");
    res.set("Access-Control-Expose-Headers", "X-Total-Count");
    next();
  });
  api.use("/auth", authRouter(ctx));
  api.use("/attachments", attachmentFilesRouter(ctx));
  api.use(authenticate(ctx));
  api.use("/users/me", meRouter(ctx));
  api.use(requireApproved);
  api.use("/users", requireAdmin, usersRouter(ctx));
  api.use("/clients", clientsRouter(ctx));
  api.use("/contacts", contactsRouter(ctx));
  api.use("/projects", deliverySettingsRouter(ctx), publishRouter(ctx), projectsRouter(ctx));
  api.use("/attachments", attachmentsRouter(ctx));
  api.use("/dashboard", dashboardRouter(ctx));
  api.use(apiNotFound);
  app.use("/api", api);

  app.use("/published", publishedRouter(ctx));
  app.use("/d", deliveryRouter(ctx));
  serveWebApp(app);
  app.use(errorMiddleware(ctx.logger));
  return app;
}

/** The built web app; every other GET falls back to index.html so deep links load. */
function serveWebApp(app: Express) {
  const index = path.join(adminDist, "index.html");
  app.use(express.static(adminDist, { index: false, maxAge: "1h" }));
  app.get(/^\/(?!api\/|api$|published\/|events$).*/, (_req, res, next) => {
    if (!fs.existsSync(index)) return next();
    res.set("Cache-Control", "no-cache");
    res.sendFile(index);
  });
}
