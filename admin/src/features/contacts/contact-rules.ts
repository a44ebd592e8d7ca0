import { nameError } from "../../lib/name-rule";
import type { ContactFormValues, ContactPayload } from "./types";

export { nameError };

/** An e-mail is optional, but one that is given must contain an @. */
export function emailError(value: string | null | undefined): string | null {
  const email = (value ?? "").trim();
  return email && !email.includes("@") ? "Invalid email format" : null;
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
