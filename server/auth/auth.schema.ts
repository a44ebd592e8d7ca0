import { z } from "zod";
import { optionalLine } from "../http/validate";
import { INVALID_EMAIL, isEmailAddress } from "../../api/validation";

/** Longest password accepted before any policy applies: keeps hashing cost bounded. */
const PASSWORD_HARD_LIMIT = 4096;

const required = (label: string) => ({
  error: (i: { input: unknown }) =>
    i.input === undefined || i.input === null ? `${label} is required` : `${label} must be text`,
});

/** An address as signing in or a reset names it: accounts made under an earlier, looser rule still sign in. */
export const email = z
  .string(required("Email"))
  .trim()
  .toLowerCase()
  .min(1, "Email is required")
  .max(320, "Email must be at most 320 characters")
  .refine((v) => v.includes("@"), INVALID_EMAIL);

/** A new account's address: one mail can be delivered to (api/validation.ts, the web app's rule too). */
const newEmail = email.refine(isEmailAddress, INVALID_EMAIL);

const password = z
  .string(required("Password"))
  .min(1, "Password is required")
  .max(PASSWORD_HARD_LIMIT, `Password must be at most ${PASSWORD_HARD_LIMIT} characters`);

const secret = (label: string) =>
  z.string(required(label)).min(1, `${label} is required`).max(4096, `Invalid ${label.toLowerCase()}`);

export const signupSchema = z.object({ email: newEmail, password, displayName: optionalLine("Display name", 200) });
export const loginSchema = z.object({ email, password });
export const refreshSchema = z.object({ refreshToken: secret("Refresh token") });
export const googleSchema = z.object({ credential: secret("Credential") });
export const resetRequestSchema = z.object({ email });
export const resetConfirmSchema = z.object({ token: secret("Token"), password });
