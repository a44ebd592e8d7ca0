import type { ClientFormValues, ClientPayload } from "./types";

/** The spec's one rule for client (and contact) names: required once trimmed. */
export function nameError(value: string | null | undefined): string | null {
  return (value ?? "").trim() ? null : "Name is required";
}

export function toClientPayload(values: ClientFormValues): ClientPayload {
  return { name: values.name.trim() };
}
