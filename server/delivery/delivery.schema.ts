import { z } from "zod";
import {
  EXPIRY_NOT_IN_FUTURE,
  PASSCODE_ONLY_SPACES,
  isInFuture,
  isSingleLine,
  notOnOneLine,
} from "../../api/validation";
import { FAVOURITES_LIMIT_MAX } from "../../api/favourites";
import { languageSchema } from "../i18n/language-schema";

/** PUT /api/projects/:id/delivery: a field left out stays as it is; null removes it. */
export const deliverySettingsSchema = z.object({
  // A past expiry would end the live link the moment it is saved.
  expiresAt: z.iso
    .datetime({ offset: true, error: "Expiry must be an ISO 8601 date and time" })
    .refine((v) => isInFuture(v), EXPIRY_NOT_IN_FUTURE)
    .nullable()
    .optional(),
  passcode: z
    .string({ error: "Passcode must be text" })
    .min(4, "Passcode must be 4 to 64 characters")
    .max(64, "Passcode must be 4 to 64 characters")
    .refine(isSingleLine, notOnOneLine("Passcode"))
    .refine((v) => /\S/.test(v), PASSCODE_ONLY_SPACES)
    .nullable()
    .optional(),
  allowDownloads: z.boolean({ error: "allowDownloads must be true or false" }).optional(),
  offerWebSize: z.boolean({ error: "offerWebSize must be true or false" }).optional(),
  // Favourites: how many photos each visitor of the page may choose; null: no limit.
  favouritesLimit: z
    .number({ error: "The favourites limit must be a whole number" })
    .int("The favourites limit must be a whole number")
    .min(1, `The favourites limit must be 1 to ${FAVOURITES_LIMIT_MAX}`)
    .max(FAVOURITES_LIMIT_MAX, `The favourites limit must be 1 to ${FAVOURITES_LIMIT_MAX}`)
    .nullable()
    .optional(),
  // The gallery's and its mails' language; null: the studio's.
  language: languageSchema.nullable().optional(),
});

/** GET /d/:token/photos?from=N: a part of the grid from the N-th photo (1-based). */
export const galleryPartSchema = z.object({
  from: z
    .string({ error: "from is required" })
    .regex(/^[1-9]\d{0,7}$/, "from must be a photo's position, from 1")
    .transform(Number),
});
