import { nameError } from "../../lib/name-rule";
import { isEmailAddress, isPhoneNumber } from "../../../../api/validation";
import type { ContactFormValues, ContactPayload } from "./types";
import { t } from "../../i18n";

export { nameError };

/** An e-mail is optional, but one that is given must be an address mail can reach (the server's rule). */
export function emailError(value: string | null | undefined): string | null {
  const email = (value ?? "").trim();
  return email && !isEmailAddress(email) ? t("app.invalidEmail") : null;
}

/** A phone number is optional, but one that is given is made of phone characters (the server's rule). */
export function phoneError(value: string | null | undefined): string | null {
  const phone = (value ?? "").trim();
  return phone && !isPhoneNumber(phone) ? t("app.invalidPhone") : null;
}

const optional = (value: string | null | undefined) => (value ?? "").trim() || null;

/** Trimmed values, blank optional fields as null; a new contact carries its clientId. */
export function toContactPayload(values: ContactFormValues, clientId?: number): ContactPayload {
  return {
    name: (values.name ?? "").trim(),
    email: optional(values.email),
    phoneNumber: optional(values.phoneNumber),
    ...(clientId !== undefined ? { clientId } : {}),
  };
}
