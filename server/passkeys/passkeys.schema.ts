import { z } from "zod";
import { requiredName } from "../http/validate";

const base64url = (label: string, max = 16_384) =>
  z
    .string({ error: `${label} must be base64url text` })
    .max(max, `${label} is too long`)
    .regex(/^[A-Za-z0-9_-]*$/, `${label} must be base64url text`);

/** What `navigator.credentials` answered, as `@simplewebauthn/browser` serialises it; the library judges the rest. */
const credentialFields = {
  id: base64url("The credential id", 1400).min(1),
  rawId: base64url("The credential id", 1400).min(1),
  type: z.literal("public-key"),
  clientExtensionResults: z.looseObject({}).default({}),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
};

const registrationResponseSchema = z.looseObject({
  ...credentialFields,
  response: z.looseObject({
    clientDataJSON: base64url("clientDataJSON"),
    attestationObject: base64url("attestationObject"),
    transports: z.array(z.string().max(40)).max(10).optional(),
  }),
});

const authenticationResponseSchema = z.looseObject({
  ...credentialFields,
  response: z.looseObject({
    clientDataJSON: base64url("clientDataJSON"),
    authenticatorData: base64url("authenticatorData"),
    signature: base64url("signature"),
    userHandle: base64url("userHandle", 512).optional(),
  }),
});

const passkeyName = requiredName(100).describe("What the user calls it, e.g. 'Work laptop'");

export const addPasskeySchema = z.strictObject({
  name: passkeyName,
  response: registrationResponseSchema.describe("What `startRegistration` of @simplewebauthn/browser answered"),
});

/** Adding a passkey asks again who is there: the password or a current two-factor code. */
export const passkeyProofSchema = z
  .strictObject({
    password: z.string().min(1, "Enter your password").max(1024).optional(),
    code: z.string().trim().min(1, "Enter the code").max(20, "A code is six digits").optional(),
  })
  .refine((body) => (body.code === undefined) !== (body.password === undefined), {
    message: "Send either your password or a current two-factor code",
  });

export const renamePasskeySchema = z.strictObject({ name: passkeyName });

export const passkeySignInSchema = z.strictObject({
  challengeId: z.string().min(1).max(64).describe("What POST /api/auth/passkey/options answered"),
  response: authenticationResponseSchema.describe("What `startAuthentication` of @simplewebauthn/browser answered"),
});
