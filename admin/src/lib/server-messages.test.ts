// @vitest-environment jsdom
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { setLanguage } from "../i18n";
import { KNOWN_SERVER_MESSAGES, inWebAppLanguage, serverMessage } from "./server-messages";

const root = path.resolve(import.meta.dirname, "../../..");

/** The server's and api/'s code, where its answers are written. */
function serverCode(): string {
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === "test" ? [] : files(file);
      return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [file] : [];
    });
  return [...files(path.join(root, "server")), ...files(path.join(root, "api"))]
    .map((file) => readFileSync(file, "utf8"))
    .join("\n");
}

const known = Object.entries(KNOWN_SERVER_MESSAGES).flatMap(([status, texts]) =>
  Object.keys(texts).map((text) => [Number(status), text] as const),
);

describe("the server's answers in the web app's language", () => {
  afterEach(() => setLanguage("en"));

  it("lists only texts the server sends", () => {
    const code = serverCode();
    for (const [, text] of known) expect(code, text).toContain(`"${text}"`);
  });

  it("shows each in English word for word as the server sent it", () => {
    for (const [status, text] of known) expect(serverMessage(status, text)).toBe(text);
  });

  it("shows each in German, and any other text as sent", async () => {
    await setLanguage("de");
    for (const [status, text] of known) expect(serverMessage(status, text), text).not.toBe(text);
    expect(serverMessage(409, "Project is published")).toBe("Das Projekt ist veröffentlicht");
    expect(serverMessage(400, "Project is published")).toBe("Project is published");
    expect(serverMessage(409, "Something new")).toBe("Something new");
  });

  it("turns a failure's message and its field messages", async () => {
    await setLanguage("de");
    const failure = inWebAppLanguage({
      statusCode: 400,
      message: "Invalid email format",
      errors: { email: "Invalid email format", phone: "Not one we know" },
    });
    expect(failure).toEqual({
      statusCode: 400,
      message: "Ungültige E-Mail-Adresse",
      errors: { email: "Ungültige E-Mail-Adresse", phone: "Not one we know" },
    });
  });
});
