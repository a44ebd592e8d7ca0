/** A route's id as a positive integer, or null for anything else ("7x", "-1", "1e2", "0x10", "abc"). */
export function parseRouteId(raw: string | undefined): number | null {
  if (!raw || !/^[1-9]\d{0,15}$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : null;
}
