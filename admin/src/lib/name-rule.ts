/** The spec's one rule for client and contact names: required once trimmed. */
export function nameError(value: string | null | undefined): string | null {
  return (value ?? "").trim() ? null : "Name is required";
}
