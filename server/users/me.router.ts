import { Router, type Request, type Response } from "express";
import type { AppContext } from "../context";
import { currentUser } from "../http/authenticate";
import { trustedOrigin } from "../http/request-origin";
import { parseBody } from "../http/validate";
import { createMailer } from "../mail/mailer";
import { accessRequestSchema, profileSchema } from "./users.schema";
import { requestAccess, updateProfile } from "./users.service";

/** /api/users/me*: open to signed-in users without approval. */
export function meRouter(ctx: AppContext): Router {
  const router = Router();
  const mailer = createMailer(ctx.config.mail, ctx.logger);

  router.get("/", (req, res) => {
    res.json(currentUser(req));
  });

  const update = async (req: Request, res: Response) => {
    const change = parseBody(profileSchema, req.body);
    res.json(await updateProfile(ctx, currentUser(req).uid, change));
  };
  router.put("/", update);
  router.patch("/", update);

  // The role rides along so the web app's access control never acts on a role from an old session.
  router.get("/access", (req, res) => {
    const { hasAccess, role } = currentUser(req);
    res.json({ hasAccess, role });
  });

  router.post("/request-access", async (req, res) => {
    const { message } = parseBody(accessRequestSchema, req.body ?? {});
    const { created, ...answer } = await requestAccess(ctx, currentUser(req), message, {
      mailer,
      origin: trustedOrigin(req, ctx.config),
    });
    res.status(created ? 201 : 200).json(answer);
  });

  return router;
}
