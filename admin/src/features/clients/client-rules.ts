import type { ClientFormValues, ClientPayload } from "./types";

export { nameError } from "../../lib/name-rule";

export function toClientPayload(values: ClientFormValues): ClientPayload {
  return { name: values.name.trim() };
}
