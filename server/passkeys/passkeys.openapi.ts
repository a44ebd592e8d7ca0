import { z } from "zod";
import { noContent, ok, routesOf, type Operation } from "../openapi/operation";
import { components, dateTime, sessionSchema } from "../openapi/schemas";
import { addPasskeySchema, passkeyProofSchema, passkeySignInSchema, renamePasskeySchema } from "./passkeys.schema";

/** The passkey routes as the OpenAPI document describes them (server/openapi/catalogue.ts lists them). */

const passkeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  createdAt: dateTime(),
  lastUsedAt: dateTime().nullable().describe("The last sign-in with it; null until the first"),
});
components.add(passkeySchema, { id: "Passkey" });

const creationOptionsSchema = z
  .looseObject({
    challenge: z.string(),
    rp: z.looseObject({ id: z.string().optional(), name: z.string() }),
    user: z.looseObject({ id: z.string(), name: z.string(), displayName: z.string() }),
    pubKeyCredParams: z.array(z.looseObject({ type: z.string(), alg: z.number() })),
  })
  .describe(
    "PublicKeyCredentialCreationOptionsJSON, for `startRegistration({ optionsJSON })` of @simplewebauthn/browser",
  );
components.add(creationOptionsSchema, { id: "PasskeyCreationOptions" });

const signInOptionsSchema = z.object({
  challengeId: z.string().describe("Send it back with the answer: single use, valid 5 minutes"),
  options: z
    .looseObject({ challenge: z.string(), rpId: z.string().optional() })
    .describe("PublicKeyCredentialRequestOptionsJSON, for `startAuthentication({ optionsJSON })`"),
});
components.add(signInOptionsSchema, { id: "PasskeySignInOptions" });

const NOT_OFFERED =
  "400 when this page cannot use passkeys (plain HTTP other than localhost, an IP address, or not the " +
  "address in PUBLIC_URL), with the reason to show; GET /api/auth/config says so beforehand.";

export const passkeyOperations: Operation[] = [
  ...routesOf("Identity", "public", [
    {
      method: "post",
      path: "/api/auth/passkey/options",
      summary: "Start signing in with a passkey: a challenge for any of this site's passkeys",
      description: NOT_OFFERED,
      answers: [ok(signInOptionsSchema, "The options and their challenge's id")],
      errors: [400, 429],
    },
    {
      method: "post",
      path: "/api/auth/passkey",
      summary: "Sign in with a passkey alone (both factors: the user is verified by the authenticator)",
      description:
        "The challenge is spent by any answer. A refused passkey counts on the account's sign-in budgets " +
        "as a wrong password does; so does a counter that did not rise (a cloned authenticator).",
      body: { json: passkeySignInSchema },
      answers: [ok(sessionSchema, "Signed in")],
      errors: [401, 429],
    },
  ]),
  ...routesOf("Passkeys", "signIn", [
    {
      method: "get",
      path: "/api/users/me/passkeys",
      summary: "One's own passkeys, oldest first",
      answers: [ok(z.array(passkeySchema), "Every passkey")],
    },
    {
      method: "post",
      path: "/api/users/me/passkeys/registration-options",
      summary: "Start adding a passkey: the password or a current two-factor code, then options for the browser",
      description:
        NOT_OFFERED +
        " A passkey signs in alone, so adding one asks again who is there: 400 without `password` or `code` " +
        "(exactly one), 403 for a wrong one (counted on the sign-in budgets as a wrong password; 429 past them). " +
        "The challenge is valid 5 minutes. Once added, the user is mailed.",
      body: { json: passkeyProofSchema },
      answers: [ok(creationOptionsSchema, "The options")],
      errors: [400, 403, 429],
    },
    {
      method: "post",
      path: "/api/users/me/passkeys",
      summary: "Add a passkey: its name and what the browser answered to the latest options",
      description:
        "400 when the answer does not verify or its challenge was used or ran out (start again); " +
        "409 when that passkey is registered already.",
      body: { json: addPasskeySchema },
      answers: [{ status: 201, description: "Added", schema: passkeySchema }],
      errors: [409],
    },
    {
      method: "patch",
      path: "/api/users/me/passkeys/:id",
      summary: "Rename one of one's passkeys",
      body: { json: renamePasskeySchema },
      answers: [ok(passkeySchema, "The passkey")],
    },
    {
      method: "delete",
      path: "/api/users/me/passkeys/:id",
      summary: "Remove one of one's passkeys: it signs in no more",
      answers: [noContent],
    },
  ]),
];
