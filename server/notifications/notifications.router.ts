import { Router, type Request, type Response } from "express";
import type { AppContext } from "../context";
import { currentUser } from "../http/authenticate";
import { parseBody } from "../http/validate";
import { notificationSettingsSchema } from "./notifications.schema";
import { notificationSettings, selectionNotices, updateNotificationSettings } from "./notifications.service";

/** /api/users/me/notifications: the signed-in staff member's own delivery mails, on or off; /selections, what the bell lists. */
export function notificationsRouter(ctx: AppContext): Router {
  const router = Router();

  router.get("/", async (req, res) => {
    res.json(await notificationSettings(ctx, currentUser(req).uid));
  });

  router.get("/selections", async (_req, res) => {
    res.json(await selectionNotices(ctx));
  });

  const update = async (req: Request, res: Response) => {
    const change = parseBody(notificationSettingsSchema, req.body);
    res.json(await updateNotificationSettings(ctx, currentUser(req).uid, change));
  };
  router.put("/", update);
  router.patch("/", update);

  return router;
}
