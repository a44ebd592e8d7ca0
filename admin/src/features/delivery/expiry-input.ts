import { isInFuture } from "../../../../api/validation";
import { oneLineProblem } from "../../lib/one-line";
import { t } from "../../i18n";

const pad = (n: number) => String(n).padStart(2, "0");

/** An ISO instant as the local `YYYY-MM-DDTHH:mm` a datetime-local input shows; empty for none. */
export function toLocalInput(iso: string | null): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local value (local time) as an ISO instant; null for an empty or unreadable one. */
export function fromLocalInput(value: string): string | null {
  if (!value.trim()) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** The passcode rule the server applies, checked before sending: blank means "keep the current one". */
export function passcodeError(passcode: string): string | null {
  if (passcode === "") return null;
  if (passcode.length < 4 || passcode.length > 64) return t("delivery.passcodeLength");
  return (
    oneLineProblem("delivery.passcode", passcode) ?? (/\S/.test(passcode) ? null : t("delivery.passcodeOnlySpaces"))
  );
}

/** The server's rule for an expiry, checked as it is typed: empty (no expiry) or later than now. */
export function expiryError(value: string, now = Date.now()): string | null {
  const iso = fromLocalInput(value);
  return iso && !isInFuture(iso, now) ? t("delivery.expiryInPast") : null;
}
