import { z } from "zod";
import { optionalLine, optionalPhone, optionalText } from "../http/validate";

/** The web app's languages (api/types.ts's WebAppLanguage). */
export const WEB_APP_LANGUAGES = ["en", "de"] as const;

/** Only these profile fields can be changed by their owner; anything else in the body is ignored. */
export const profileSchema = z.object({
  displayName: optionalLine("Display name", 200).optional(),
  phoneNumber: optionalPhone().optional(),
  language: z.enum(WEB_APP_LANGUAGES, { error: `Language must be one of ${WEB_APP_LANGUAGES.join(", ")}` }).optional(),
});

// The access request's message is free text: its line breaks are kept.
export const accessRequestSchema = z.object({ message: optionalText("Message", 1000) });

const ACCESS_STATES = ["approved", "pending", "revoked", "none"] as const;

/** The users list's own filter, `access=<state>` (beside the simple-rest parameters). */
export const accessFilterSchema = z.object({
  access: z.enum(ACCESS_STATES, { error: `Filter access must be one of ${ACCESS_STATES.join(", ")}` }).optional(),
});

export const userChangeSchema = z.object({
  hasAccess: z.boolean({ error: "hasAccess must be true or false" }).optional(),
  role: z.enum(["admin", "staff"], { error: "role must be admin or staff" }).optional(),
});

export type ProfileChange = z.infer<typeof profileSchema>;
export type UserChange = z.infer<typeof userChangeSchema>;
