import { Router, type Request, type Response } from "express";
import type { AppContext } from "../context";
import { parseBody, parseId } from "../http/validate";
import { reminderSettingsSchema } from "./reminders.schema";
import { reminderSettings, updateReminderSettings } from "./reminders.service";

/** /api/projects/:id/reminders: 'Remind {n} days before the link expires' (days null: off). */
export function remindersRouter(ctx: AppContext): Router {
  const router = Router();

  router.get("/:id/reminders", async (req, res) => {
    res.json(await reminderSettings(ctx, parseId(req.params.id)));
  });

  const update = async (req: Request, res: Response) => {
    const id = parseId(req.params.id);
    res.json(await updateReminderSettings(ctx, id, parseBody(reminderSettingsSchema, req.body)));
  };
  router.put("/:id/reminders", update);
  router.patch("/:id/reminders", update);

  return router;
}
