import type { IncomingMessage } from "node:http";

/** Every cookie of that name the request carries (a browser sends one per matching path). */
export function cookieValues(req: IncomingMessage, name: string): string[] {
  const header = req.headers.cookie ?? "";
  const values: string[] = [];
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) values.push(part.slice(eq + 1).trim());
  }
  return values;
}
