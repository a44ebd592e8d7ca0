import { nameError } from "../../lib/name-rule";
import { INVALID_EMAIL, INVALID_PHONE, isEmailAddress, isPhoneNumber } from "../../../../api/validation";
import type { ContactFormValues, ContactPayload } from "./types";

export { nameError };

/** An e-mail is optional, but one that is given must be an address mail can reach (the server's rule). */
export function emailError(value: string | null | undefined): string | null {
  const email = (value ?? "").trim();
  return email && !isEmailAddress(email) ? INVALID_EMAIL : null;
}

/** A phone number is optional, but one that is given is made of phone characters (the server's rule). */
export function phoneError(value: string | null | undefined): string | null {
  const phone = (value ?? "").trim();
  return phone && !isPhoneNumber(phone) ? INVALID_PHONE : null;
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
