import { z } from "zod";
import { optionalText } from "../http/validate";
import { WEBHOOK_EVENT_TYPES } from "../../api/webhooks";
import { literalAddressProblem } from "./address-guard";

const url = z
  .string({ error: "url must be text" })
  .trim()
  .min(1, "url is required")
  .max(2000, "url must be at most 2000 characters")
  .superRefine((value, issue) => {
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      issue.addIssue({ code: "custom", message: "url must be an absolute http or https URL" });
      return;
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
      issue.addIssue({ code: "custom", message: "url must be an absolute http or https URL" });
    else if (parsed.username || parsed.password)
      issue.addIssue({ code: "custom", message: "url must not hold a user name or password" });
  });

const events = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { error: `each event must be one of ${WEBHOOK_EVENT_TYPES.join(", ")}` }), {
    error: "events must be a list of event types",
  })
  .min(1, "events must name at least one event type")
  .transform((list) => [...new Set(list)]);

/** POST /api/webhooks. */
export const createWebhookSchema = z.strictObject({
  url,
  events,
  description: optionalText("Description", 500),
});

/** PATCH /api/webhooks/{id}: any of the fields, and `rotateSecret: true` for a new secret. */
export const updateWebhookSchema = z.strictObject({
  url: url.optional(),
  events: events.optional(),
  description: optionalText("Description", 500).optional(),
  active: z.boolean({ error: "active must be true or false" }).optional(),
  rotateSecret: z.literal(true, { error: "rotateSecret may only be true" }).optional(),
});

export type CreateWebhookInput = z.infer<typeof createWebhookSchema>;
export type UpdateWebhookInput = z.infer<typeof updateWebhookSchema>;

/** A URL whose host is an address never allowed here (400 at creation, before any send). */
export function urlProblem(value: string, allowPrivate: boolean): string | undefined {
  return literalAddressProblem(new URL(value).hostname, allowPrivate);
}
