/** The expiries the new-token form offers, in days; null: never. */
export const EXPIRY_CHOICES: Array<{ value: string; label: string; days: number | null }> = [
  { value: "30", label: "account.in30Days", days: 30 },
  { value: "90", label: "account.in90Days", days: 90 },
  { value: "365", label: "account.inAYear", days: 365 },
  { value: "never", label: "account.never", days: null },
];

export function expiryFrom(choice: string, now = Date.now()): string | null {
  const days = EXPIRY_CHOICES.find((c) => c.value === choice)?.days ?? null;
  return days === null ? null : new Date(now + days * 86_400_000).toISOString();
}
