import { z } from "zod";
import { optionalText } from "../http/validate";

/** Only these profile fields can be changed by their owner; anything else in the body is ignored. */
export const profileSchema = z.object({
  displayName: optionalText("Display name", 200).optional(),
  phoneNumber: optionalText("Phone number", 50).optional(),
});

export const accessRequestSchema = z.object({ message: optionalText("Message", 1000) });

export const userChangeSchema = z.object({
  hasAccess: z.boolean({ error: "hasAccess must be true or false" }).optional(),
  role: z.enum(["admin", "staff"], { error: "role must be admin or staff" }).optional(),
});

export type ProfileChange = z.infer<typeof profileSchema>;
export type UserChange = z.infer<typeof userChangeSchema>;
