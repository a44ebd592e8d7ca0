import { z } from "zod";
import { optionalEmail, optionalPhone } from "../http/validate";
import {
  completeWebsite,
  INVALID_ACCENT,
  INVALID_TIME_ZONE,
  isAccentColour,
  isTimeZone,
  studioNameProblem,
  websiteProblem,
} from "../../api/studio";

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
    .superRefine(checkedBy(studioNameProblem))
    .optional(),
  accentColor: z
    .string({ error: INVALID_ACCENT })
    .trim()
    .refine(isAccentColour, INVALID_ACCENT)
    .transform((v) => v.toLowerCase())
    .optional(),
  contactEmail: optionalEmail().optional(),
  contactPhone: optionalPhone().optional(),
  // Checked before the length cap of optionalText, which would otherwise speak first.
  contactWebsite: z
    .string({ error: "Web site must be text" })
    .trim()
    .nullish()
    .superRefine((v, ctx) => checkedBy(websiteProblem)(v ?? null, ctx))
    .transform((v) => (v ? completeWebsite(v) : null))
    .optional(),
  timeZone: z.string({ error: INVALID_TIME_ZONE }).trim().refine(isTimeZone, INVALID_TIME_ZONE).optional(),
});

export type StudioChange = z.infer<typeof studioChangeSchema>;
