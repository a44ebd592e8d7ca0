import { t } from "../i18n";

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
  const length = policy.maxLength
    ? t("password.between", { min, max: policy.maxLength })
    : t("password.atLeast", { min });
  const needs = [
    policy.requireUppercase && t("password.uppercase"),
    policy.requireLowercase && t("password.lowercase"),
    policy.requireNumeric && t("password.number"),
    policy.requireNonAlphanumeric && t("password.symbol"),
  ].filter((need): need is string => Boolean(need));
  if (needs.length === 0) return t("password.rule", { length });
  const last = needs.pop();
  const list = needs.length ? t("password.list", { first: needs.join(", "), last }) : last;
  return t("password.ruleWithNeeds", { length, list });
}
