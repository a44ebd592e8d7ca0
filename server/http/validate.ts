import { z } from "zod";
import { ValidationError, type FieldErrors } from "./errors";
import {
  INVALID_EMAIL,
  INVALID_PHONE,
  isEmailAddress,
  isPhoneNumber,
  isSingleLine,
  notOnOneLine,
} from "../../api/validation";

/** Parses input with a zod schema; failures become a 400 with a message per field. */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path.join(".") || "body";
    errors[field] ??= issue.message;
  }
  const first = Object.values(errors)[0] ?? "Invalid request";
  throw new ValidationError(first, errors);
}

/** A request body must be a JSON object before any field is looked at. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new ValidationError("Request body must be a JSON object");
  }
  return parse(schema, body);
}

/** The largest id any table holds: ids are 32-bit integers on PostgreSQL, and a larger one names no row. */
export const MAX_ID = 2_147_483_647;

/** Route ids are positive integers up to MAX_ID. */
export function parseId(raw: unknown, label = "id"): number {
  const text = String(raw ?? "");
  if (!/^[1-9]\d{0,9}$/.test(text) || Number(text) > MAX_ID) {
    throw new ValidationError(`Invalid ${label}: must be a positive integer`);
  }
  return Number(text);
}

/** A required, trimmed name with the spec's message; a name is one line (api/validation.ts). */
export const requiredName = (max = 200) =>
  z
    .string({ error: (i) => (i.input === undefined || i.input === null ? "Name is required" : "Name must be text") })
    .trim()
    .min(1, "Name is required")
    .max(max, `Name must be at most ${max} characters`)
    .refine(isSingleLine, notOnOneLine("Name"));

/** Optional free text, line breaks kept (a description, a message): blank or absent becomes null. */
export const optionalText = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .nullish()
    .transform((v) => (v ? v : null));

/** Optional single-line text (a display name): blank or absent becomes null. */
export const optionalLine = (label: string, max: number) =>
  optionalText(label, max).refine((v) => v === null || isSingleLine(v), notOnOneLine(label));

/** An optional e-mail address (api/validation.ts, the rule the web app applies too): blank becomes null. */
export const optionalEmail = () =>
  optionalText("Email", 320).refine((v) => v === null || isEmailAddress(v), INVALID_EMAIL);

/** An optional phone number in printable phone characters: blank becomes null. */
export const optionalPhone = () =>
  optionalText("Phone number", 50).refine((v) => v === null || isPhoneNumber(v), INVALID_PHONE);
