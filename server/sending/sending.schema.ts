import { z } from "zod";
import { MAX_ID } from "../http/validate";
import { isSingleLine, notOnOneLine } from "../../api/validation";

export const MAX_RECIPIENTS = 50;
const TOO_MANY = `At most ${MAX_RECIPIENTS} recipients at once`;

const mailboxAddress = z.email("Invalid email format");

/**
 * An address one mail can go to: one mailbox, no name, no list, no line break (zod's e-mail
 * pattern allows none of those), at most 254 characters (RFC 5321).
 */
export const isMailableAddress = (email: string) => email.length <= 254 && mailboxAddress.safeParse(email).success;

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;

const sendSchemaBase = z.object({
  contactIds: z
    .array(z.number({ error: "Contact ids must be numbers" }).int().positive().max(MAX_ID), {
      error: "contactIds must be a list",
    })
    .max(MAX_RECIPIENTS, TOO_MANY)
    .default([]),
  emails: z
    .array(z.string({ error: "Addresses must be text" }).trim().refine(isMailableAddress, "Invalid email format"), {
      error: "emails must be a list",
    })
    .max(MAX_RECIPIENTS, TOO_MANY)
    .default([]),
  // A subject is a header: a line break in it could start a header of its own, so it is refused.
  subject: z
    .string({ error: "Subject is required" })
    .trim()
    .min(1, "Subject is required")
    .max(200, "Subject must be at most 200 characters")
    .refine(isSingleLine, notOnOneLine("Subject")),
  message: z
    .string({ error: "Message must be text" })
    .max(5000, "Message must be at most 5000 characters")
    .transform((v) => v.replace(/\r\n?/g, "\n").trim())
    .refine((v) => !CONTROL.test(v), "Message must not contain control characters"),
  // Written into the mail as a line of its own.
  passcode: z
    .string({ error: "Passcode must be text" })
    .min(1, "Type the passcode")
    .max(64, "Passcode must be at most 64 characters")
    .refine(isSingleLine, notOnOneLine("Passcode"))
    .optional(),
});

export const sendSchema = sendSchemaBase
  .refine((v) => v.contactIds.length + v.emails.length > 0, {
    message: "Choose at least one recipient",
    path: ["contactIds"],
  })
  .refine((v) => v.contactIds.length + v.emails.length <= MAX_RECIPIENTS, {
    message: TOO_MANY,
    path: ["emails"],
  });

export type SendInput = z.infer<typeof sendSchema>;
