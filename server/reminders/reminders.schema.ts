import { z } from "zod";
import { MAX_REMINDER_DAYS } from "./reminders.service";

export const reminderSettingsSchema = z.object({
  days: z
    .number({ error: "days must be a number of days or null" })
    .int("days must be a whole number")
    .min(1, "Remind at least 1 day before the link expires")
    .max(MAX_REMINDER_DAYS, `Remind at most ${MAX_REMINDER_DAYS} days before the link expires`)
    .nullable(),
});
