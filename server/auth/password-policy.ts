import type { Config } from "../config";
import { ValidationError } from "../http/errors";

export type PasswordPolicy = Config["passwordPolicy"];

/** The first rule the password breaks, as the message the user sees; null when it passes. */
export function passwordPolicyViolation(policy: PasswordPolicy, password: string): string | null {
  const length = [...password].length;
  if (length < policy.minLength) return `Password must be at least ${policy.minLength} characters`;
  if (policy.maxLength !== null && length > policy.maxLength)
    return `Password must be at most ${policy.maxLength} characters`;
  if (policy.requireUppercase && !/\p{Lu}/u.test(password)) return "Password must contain an uppercase letter";
  if (policy.requireLowercase && !/\p{Ll}/u.test(password)) return "Password must contain a lowercase letter";
  if (policy.requireNumeric && !/\p{Nd}/u.test(password)) return "Password must contain a number";
  if (policy.requireNonAlphanumeric && !/[^\p{L}\p{N}]/u.test(password))
    return "Password must contain a non-alphanumeric character";
  return null;
}

export function assertPasswordPolicy(policy: PasswordPolicy, password: string): void {
  const violation = passwordPolicyViolation(policy, password);
  if (violation) throw new ValidationError(violation, { password: violation });
}
