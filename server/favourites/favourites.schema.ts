import { z } from "zod";
import { COMMENT_MAX, NAME_MAX, NOT_PLAIN, isPlainLine } from "../../api/favourites";
import { INVALID_EMAIL, isEmailAddress, isSingleLine, notOnOneLine } from "../../api/validation";

/** POST /d/:token/favourites/visitor: who is choosing. */
export const visitorSchema = z.object({
  name: z
    .string({ error: "Your name is required" })
    .trim()
    .min(1, "Your name is required")
    .max(NAME_MAX, `Your name must be at most ${NAME_MAX} characters`)
    .refine(isSingleLine, notOnOneLine("Your name"))
    .refine(isPlainLine, NOT_PLAIN),
  email: z
    .string({ error: "Your e-mail is required" })
    .trim()
    .min(1, "Your e-mail is required")
    .refine(isEmailAddress, INVALID_EMAIL),
});

/** PUT /d/:token/favourites/:n: the photo on the list; a comment given replaces its comment, blank removes it. */
export const favouriteSchema = z.object({
  comment: z
    .string({ error: "The comment must be text" })
    .trim()
    .max(COMMENT_MAX, `A comment must be at most ${COMMENT_MAX} characters`)
    .refine(isSingleLine, notOnOneLine("The comment"))
    .refine(isPlainLine, NOT_PLAIN)
    .nullish()
    .transform((v) => (v === undefined ? undefined : v || null)),
});
