/** The password rules GET /api/auth/config announces (contract section 2). */
export interface PasswordPolicy {
  minLength?: number;
  maxLength?: number | null;
  requireUppercase?: boolean;
  requireLowercase?: boolean;
  requireNumeric?: boolean;
  requireNonAlphanumeric?: boolean;
}

export const DEFAULT_MIN_PASSWORD_LENGTH = 6;

/** The policy as one sentence for the hint under a new-password field. */
export function describePasswordPolicy(policy: PasswordPolicy): string {
  const min = policy.minLength ?? DEFAULT_MIN_PASSWORD_LENGTH;
  const length = policy.maxLength ? `${min} to ${policy.maxLength} characters` : `at least ${min} characters`;
  const needs = [
    policy.requireUppercase && "an uppercase letter",
    policy.requireLowercase && "a lowercase letter",
    policy.requireNumeric && "a number",
    policy.requireNonAlphanumeric && "a symbol",
  ].filter((need): need is string => Boolean(need));
  if (needs.length === 0) return `Password must be ${length} long.`;
  const last = needs.pop();
  const list = needs.length ? `${needs.join(", ")} and ${last}` : last;
  return `Password must be ${length} long and include ${list}.`;
}
