import { z } from "zod";
import { optionalEmail, optionalPhone, optionalText, requiredName } from "../http/validate";
import {
  CONTACT_MAX,
  CONTROL_CHARACTERS,
  INVALID_ACCENT,
  INVALID_WEBSITE,
  STUDIO_NAME_MAX,
  hasControlCharacters,
  isAccentColour,
  isWebsite,
} from "../../api/studio";

const noControls = (v: string | null) => v === null || !hasControlCharacters(v);

/** PUT/PATCH /api/studio/settings: only the fields given change; blank contact fields clear them. */
export const studioChangeSchema = z.object({
  name: requiredName(STUDIO_NAME_MAX)
    .refine((v) => !hasControlCharacters(v), CONTROL_CHARACTERS)
    .optional(),
  accentColor: z
    .string({ error: INVALID_ACCENT })
    .trim()
    .refine(isAccentColour, INVALID_ACCENT)
    .transform((v) => v.toLowerCase())
    .optional(),
  contactEmail: optionalEmail().optional(),
  contactPhone: optionalPhone().optional(),
  contactWebsite: optionalText("Web site", CONTACT_MAX)
    .refine(noControls, CONTROL_CHARACTERS)
    .refine((v) => v === null || isWebsite(v), INVALID_WEBSITE)
    .optional(),
});

export type StudioChange = z.infer<typeof studioChangeSchema>;
