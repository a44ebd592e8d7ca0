export type { Contact } from "../../../../api/types";

/** What the form holds: text fields, never null, so inputs stay controlled. */
export interface ContactFormValues {
  name: string;
  email: string;
  phoneNumber: string;
}

/** What is sent: trimmed, blank optional fields as null, a new contact with its clientId. */
export interface ContactPayload {
  name: string;
  email: string | null;
  phoneNumber: string | null;
  clientId?: number;
}
