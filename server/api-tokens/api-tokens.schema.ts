import { z } from "zod";
import { EXPIRY_NOT_IN_FUTURE, isInFuture } from "../../api/validation";
import { requiredName } from "../http/validate";

const API_TOKEN_SCOPES = ["read", "write", "admin"] as const;

/** POST /api/users/me/tokens: a name to know it by, what it may do, and when it ends (null: never). */
export const apiTokenRequestSchema = z.strictObject({
  name: requiredName(100),
  scope: z.enum(API_TOKEN_SCOPES, { error: `scope must be one of ${API_TOKEN_SCOPES.join(", ")}` }),
  expiresAt: z.iso
    .datetime({ offset: true, error: "expiresAt must be an ISO 8601 date and time, or null" })
    .refine((v) => isInFuture(v), EXPIRY_NOT_IN_FUTURE)
    .transform((v) => new Date(v).toISOString())
    .nullable(),
});
