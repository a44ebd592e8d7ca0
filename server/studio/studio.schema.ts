import { z } from "zod";
import { languageSchema } from "../i18n/language-schema";
import { optionalEmail, optionalPhone } from "../http/validate";
import { INVALID_ACCENT, INVALID_TIME_ZONE, studioFieldProblems as problems, websiteAsSaved } from "../../api/studio";

/** A zod check by one of api/studio.ts's rules, with its message. */
const checkedBy = (problem: (value: string) => string | null) => (value: string | null, ctx: z.RefinementCtx) => {
  const message = value === null ? null : problem(value);
  if (message) ctx.addIssue({ code: "custom", message });
};

/** PUT/PATCH /api/studio/settings: only the fields given change; blank contact fields clear them. */
export const studioChangeSchema = z.object({
  name: z
    .string({ error: (i) => (i.input === undefined || i.input === null ? "Name is required" : "Name must be text") })
    .trim()
    .superRefine(checkedBy(problems.name))
    .optional(),
  accentColor: z
    .string({ error: INVALID_ACCENT })
    .trim()
    .superRefine(checkedBy(problems.accentColor))
    .transform((v) => v.toLowerCase())
    .optional(),
  contactEmail: optionalEmail().optional(),
  contactPhone: optionalPhone().optional(),
  // Checked before the length cap of optionalText, which would otherwise speak first.
  contactWebsite: z
    .string({ error: "Web site must be text" })
    .trim()
    .nullish()
    .superRefine((v, ctx) => checkedBy(problems.contactWebsite)(v ?? null, ctx))
    .transform((v) => websiteAsSaved(v ?? ""))
    .optional(),
  timeZone: z.string({ error: INVALID_TIME_ZONE }).trim().superRefine(checkedBy(problems.timeZone)).optional(),
  // The clients' galleries and mails, unless a project chooses its own.
  language: languageSchema.optional(),
  followBrowserLanguage: z.boolean({ error: "followBrowserLanguage must be true or false" }).optional(),
  requireTwoFactor: z.boolean({ error: "requireTwoFactor must be true or false" }).optional(),
});

export type StudioChange = z.infer<typeof studioChangeSchema>;
