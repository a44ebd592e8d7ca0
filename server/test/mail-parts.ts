/**
 * Reads a received message the way a mail program does, enough for tests: unfolded headers
 * (encoded words decoded) and the decoded text and HTML parts of a multipart/alternative body.
 */
export interface MailParts {
  /** Every header line, unfolded, undecoded: what a header injection would show up in. */
  headerLines: string[];
  /** A header's decoded values, by case-insensitive name. */
  header(name: string): string[];
  text: string;
  html: string;
}

function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_m, _charset: string, kind: string, data: string) =>
      kind.toUpperCase() === "B"
        ? Buffer.from(data, "base64").toString("utf8")
        : Buffer.from(
            data
              .replace(/_/g, " ")
              .replace(/=([0-9A-Fa-f]{2})/g, (_x, hex: string) => String.fromCharCode(parseInt(hex, 16))),
            "latin1",
          ).toString("utf8"),
    );
}

function split(entity: string): { lines: string[]; body: string } {
  const end = entity.indexOf("\r\n\r\n");
  const head = end < 0 ? entity : entity.slice(0, end);
  return { lines: head.replace(/\r\n[ \t]+/g, " ").split("\r\n"), body: end < 0 ? "" : entity.slice(end + 4) };
}

const valueOf = (lines: string[], name: string) =>
  lines
    .filter((line) => line.toLowerCase().startsWith(`${name.toLowerCase()}:`))
    .map((line) => line.slice(name.length + 1).trim());

function decodeBody(body: string, encoding: string | undefined): string {
  const kind = (encoding ?? "7bit").toLowerCase();
  if (kind === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (kind === "quoted-printable") {
    const bytes = body
      .replace(/=\r\n/g, "")
      .replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, "latin1").toString("utf8");
  }
  return body;
}

/** The text and HTML parts of an entity, looking inside nested multiparts (HTML with inline images is multipart/related). */
function textParts(lines: string[], body: string, parts: { text: string; html: string }): void {
  const type = valueOf(lines, "content-type")[0] ?? "text/plain";
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (boundary) {
    for (const entity of body
      .split(`--${boundary}`)
      .slice(1, -1)
      .map((part) => part.replace(/^\r\n/, ""))) {
      const part = split(entity);
      textParts(part.lines, part.body.replace(/\r\n$/, ""), parts);
    }
    return;
  }
  const encoding = valueOf(lines, "content-transfer-encoding")[0];
  const content = decodeBody(body, encoding).replace(/\r\n/g, "\n");
  if (type.toLowerCase().startsWith("text/html")) parts.html ||= content;
  else if (type.toLowerCase().startsWith("text/plain")) parts.text ||= content;
}

export function mailParts(raw: string): MailParts {
  const { lines, body } = split(raw);
  const parts = { text: "", html: "" };
  textParts(lines, body, parts);
  return {
    headerLines: lines,
    header: (name) => valueOf(lines, name).map(decodeWords),
    ...parts,
  };
}
