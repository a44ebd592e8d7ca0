import type { AppContext } from "../context";
import { runPeriodically } from "../periodic-task";
import { recordExpiredLinks, sendDueReminders } from "./reminders.service";

/**
 * Every REMINDER_CHECK_SECONDS, and once at start: send the reminders that are due and record the
 * links that expired. Everything it acts on is read from the database, so nothing is lost with a
 * restart, and every process may run it (claims keep each mail to one). Answers the function
 * that stops it.
 */
export function superviseDeliveryMail(ctx: AppContext): () => void {
  return runPeriodically(
    async () => {
      const reminders = await sendDueReminders(ctx);
      const expired = await recordExpiredLinks(ctx);
      ctx.logger.debug({ reminders, expired }, "delivery mail check");
    },
    ctx.config.reminderCheckSeconds * 1000,
    (err) => ctx.logger.warn({ err: err.message }, "could not send reminders or record expired links"),
  );
}
