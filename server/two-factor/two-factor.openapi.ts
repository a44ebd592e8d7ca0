import { z } from "zod";
import { noContent, ok, routesOf, type Operation } from "../openapi/operation";
import { components, sessionSchema } from "../openapi/schemas";
import { confirmTwoFactorSchema, disableTwoFactorSchema, twoFactorSignInSchema } from "./two-factor.schema";

/** The two-factor routes as the OpenAPI document describes them (server/openapi/catalogue.ts lists them). */

export const twoFactorRequiredSchema = z.object({
  twoFactorRequired: z.literal(true),
  challenge: z.string().describe("For POST /api/auth/login/two-factor: single use, valid 5 minutes"),
});
components.add(twoFactorRequiredSchema, { id: "TwoFactorRequired" });

const statusSchema = z.object({
  enabled: z.boolean(),
  required: z.boolean().describe("The studio requires it of everyone: until it is on, only enrolment is allowed"),
  pending: z.boolean().describe("An enrolment was started and waits for its first right code"),
  recoveryCodesLeft: z.number().int(),
});
components.add(statusSchema, { id: "TwoFactorStatus" });

const enrolmentSchema = z.object({
  secret: z.string().describe("The base32 secret, to type into an authenticator app"),
  otpauthUrl: z.string().describe("The `otpauth://totp/…` address a QR code carries"),
});
components.add(enrolmentSchema, { id: "TwoFactorEnrolment" });

const recoveryCodesSchema = z.object({
  recoveryCodes: z.array(z.string()).length(10).describe("Ten single-use codes, shown this once"),
});
components.add(recoveryCodesSchema, { id: "RecoveryCodes" });

export const twoFactorOperations: Operation[] = [
  ...routesOf("Identity", "public", [
    {
      method: "post",
      path: "/api/auth/login/two-factor",
      summary: "Sign in, second step: the challenge and a code (or a recovery code)",
      description:
        "A wrong code counts on the sign-in budgets as a wrong password does; the challenge stays usable " +
        "until it is spent by a success or its 5 minutes are over. A recovery code works once and mails the user.",
      body: { json: twoFactorSignInSchema },
      answers: [ok(sessionSchema, "Signed in")],
      errors: [401, 429],
    },
  ]),
  ...routesOf("Two-factor", "signIn", [
    {
      method: "get",
      path: "/api/users/me/two-factor",
      summary: "Whether one's two-factor sign-in is on, and how many recovery codes are left",
      answers: [ok(statusSchema)],
    },
    {
      method: "post",
      path: "/api/users/me/two-factor",
      summary: "Start turning two-factor sign-in on: a new authenticator secret",
      description: "It is on only once POST …/confirm receives a right code. 409 when it is on already.",
      answers: [ok(enrolmentSchema, "The pending secret")],
      errors: [409],
    },
    {
      method: "post",
      path: "/api/users/me/two-factor/confirm",
      summary: "Turn two-factor sign-in on with the app's current code",
      description: "400 for a wrong or already used code; 409 when no enrolment waits.",
      body: { json: confirmTwoFactorSchema },
      answers: [ok(recoveryCodesSchema, "On; the recovery codes")],
      errors: [409],
    },
    {
      method: "post",
      path: "/api/users/me/two-factor/recovery-codes",
      summary: "Make ten new recovery codes (the old ones stop working)",
      answers: [ok(recoveryCodesSchema, "The new codes")],
      errors: [409],
    },
    {
      method: "delete",
      path: "/api/users/me/two-factor",
      summary: "Turn two-factor sign-in off, with a current code or the password",
      description: "400 for a wrong code or password (counted on the sign-in budgets); 409 when it is not on.",
      body: { json: disableTwoFactorSchema },
      answers: [noContent],
      errors: [409],
    },
  ]),
  ...routesOf("Users", "admin", [
    {
      method: "delete",
      path: "/api/users/:uid/two-factor",
      summary: "Turn a user's two-factor sign-in off and remove their passkeys (lost device); the user is mailed",
      description:
        "For someone who lost their device: their recovery codes and passkeys go too (a passkey signs in alone), " +
        "and the mail says how many passkeys were removed. Sign-in only: API tokens are refused. " +
        "409 when two-factor is not on, and for one's own (turned off in Security, with a proof).",
      answers: [noContent],
      errors: [409],
    },
  ]),
];
