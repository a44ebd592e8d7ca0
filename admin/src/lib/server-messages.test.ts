// @vitest-environment jsdom
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { setLanguage } from "../i18n";
import { KNOWN_SERVER_MESSAGES, SERVER_MESSAGE_PATTERNS, inWebAppLanguage, serverMessage } from "./server-messages";
import { ANY, scanServerMessages, type ScannedMessage } from "./server-message-scan";

const known = Object.entries(KNOWN_SERVER_MESSAGES).flatMap(([status, texts]) =>
  Object.keys(texts).map((text) => [Number(status), text] as const),
);

/**
 * Messages the server sends that the web app never shows, each with why. A text matches an entry
 * equal to it or, for a RegExp, matched by it.
 */
const NEVER_SHOWN: readonly { text: string | RegExp; why: string }[] = [
  {
    text: /^[a-z][A-Za-z]* (must|may|is) /,
    why: "names a JSON field the web app's own switches, lists and menus fill",
  },
  { text: /^each event must be one of /, why: "the webhook form offers only the server's event types" },
  { text: / must be text$/, why: "the web app's fields always send text" },
  {
    text: /^(Contact ids must be numbers|Addresses must be text|Client must be a positive integer id)$/,
    why: "chosen from lists, never typed",
  },
  {
    text: /^(Refresh token|Credential|Token) is required$|^Invalid (refresh token|credential|token)$/,
    why: "sent by the web app itself (its session, Google's answer, the reset link's token)",
  },
  { text: /^Language must be one of /, why: "chosen from the language menus" },
  { text: /^Expiry must be an ISO 8601 date and time$/, why: "written by the date picker" },
  {
    text: /^Send either (your password or a current two-factor code|the code or the password|the code or a recovery code)$/,
    why: "the web app sends exactly one of the two",
  },
  { text: / (must be base64url text|is too long)$/, why: "the browser's passkey answer, passed on as it came" },
  { text: /^Invalid [\w ]+: must be a positive integer$/, why: "an id in an address the web app builds" },
  {
    text: /^(Query parameter|Filter|Cannot (sort|filter|search)) |^This list cannot be searched$/,
    why: "list parameters the web app's data provider writes",
  },
  {
    text: /^(If-Match must be \* or a list of entity tags|Request body must be a JSON object|Malformed JSON in request body|Malformed URL|Unsupported request encoding|Range not satisfiable)$/,
    why: "the web app's requests are well-formed; ranges are asked by the browser for media",
  },
  { text: "Send one file in field file, or use upload-multiple", why: "the web app uploads through upload-multiple" },
  { text: /^No route for /, why: "the web app calls only the server's routes" },
  {
    text: "The session cookie is only accepted with the x-photodrop-session header",
    why: "the web app always sends the header",
  },
  {
    text: /^(Attachment file|Preview|Thumbnail) not found$|^(Link has expired|Invalid link signature)$/,
    why: "signed file links, loaded by <img> and downloads, never shown as text",
  },
  {
    text: /^(Invalid or expired API token|Too many requests with this API token, .*|This API token's scope is .*|API tokens are managed when signed in, not with an API token)$/,
    why: "API-token-only: answers to a request made with an API token",
  },
  { text: /^(Metrics are off|Invalid metrics token)/, why: "the metrics endpoint, read by a monitoring tool" },
  { text: "required", why: "the code errors.twoFactor, read by the web app, not shown" },
  {
    text: /^(Your name|Your e-mail|The comment|A comment) |^(Use plain text on one line, without < or >|Give your name and e-mail first|Choose at least one photo first|Photo not found|Passcode required|Wrong passcode|This unsubscribe link is not valid|This delivery has expired|This gallery is being updated — please check back soon|Too many wrong passcodes.*)$|^You can choose up to \d+ photos$/,
    why: "gallery-only: the client's delivery page and unsubscribe page",
  },
  {
    text: /^(Invalid projectId|Unknown resource|resources must .*)$/,
    why: "the live-updates socket's frames, written by the web app",
  },
  {
    text: /^must be |^not a backup file path$/,
    why: "the server's configuration and backup tool, never an HTTP answer",
  },
];

/** Message expressions the scan cannot follow, each with where its texts are checked instead. */
const NOT_FOLLOWED: readonly { at: string; expression: string; why: string }[] = [
  { at: "server/http/validate.ts", expression: "first", why: "a zod message: the schemas' messages are scanned" },
  {
    at: "server/attachments/attachments.service.ts",
    expression: "new HttpError(first.error.statusCode, first.error.message, errors)",
    why: "one upload's own refusal, scanned where it is thrown",
  },
  {
    at: "server/http/error-middleware.ts",
    expression: 'new HttpError(status, "Bad request")',
    why: "a body parser's other refusals; the web app's requests are well-formed",
  },
  {
    at: "server/http/rate-limit.ts",
    expression: "message",
    why: "a limiter's own message, given at its consume() call: only the gallery's passcode attempts give one",
  },
];

const root = path.resolve(import.meta.dirname, "../../..");
const scan = scanServerMessages(root);
/** A text as it may arrive: a part the scan could not know ("…") as a number, which every pattern takes. */
const sample = (message: ScannedMessage) => message.text.replaceAll(ANY, "7");
const neverShown = (text: string) =>
  NEVER_SHOWN.some((entry) => (typeof entry.text === "string" ? entry.text === text : entry.text.test(text)));

describe("the server's answers in the web app's language", () => {
  afterEach(() => setLanguage("en"));

  it("lists only texts the server sends, with the status it sends them with", () => {
    const sent = new Set(scan.messages.map((message) => `${message.status} ${message.text}`));
    for (const [status, text] of known) expect(sent, text).toContain(`${status} ${text}`);
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

  it("shows a text that names an object's own property (toString, constructor…) as sent", async () => {
    await setLanguage("de");
    for (const text of ["toString", "constructor", "__proto__", "hasOwnProperty", "valueOf"])
      for (const status of [400, 404, 409, 418]) expect(serverMessage(status, text)).toBe(text);
    const field = "constructor must be at most 5 characters";
    expect(serverMessage(400, field)).toBe(field);
  });

  it("finds the messages in the server's code, through constants, helpers and their callers", () => {
    const texts = new Set(scan.messages.map((message) => `${message.status} ${message.text}`));
    for (const text of [
      "409 Project is published",
      "400 Name must be at most 100 characters",
      "400 Display name must be on one line, without control characters",
      "400 Password must be at least … characters",
      "403 Two-factor sign-in is required: turn it on in Security first",
      "413 File too large",
      "400 Passkeys need the studio's address by name (HTTPS), not an IP address: browsers refuse them there.",
    ])
      expect(texts, text).toContain(text);
    expect(scan.messages.length).toBeGreaterThan(250);
  });

  it("knows every message the server can send to the web app, or lists why it never shows", async () => {
    const followed = (item: { at: string; expression: string }) =>
      NOT_FOLLOWED.some((entry) => item.at.startsWith(`${entry.at}:`) && entry.expression === item.expression);
    expect(scan.unresolved.filter((item) => !followed(item))).toEqual([]);
    await setLanguage("de");
    const unknown = scan.messages
      .filter((message) => !neverShown(sample(message)))
      .filter((message) => serverMessage(message.status, sample(message)) === sample(message))
      .map((message) => `${message.status} ${message.text} (${message.at})`);
    expect([...new Set(unknown)]).toEqual([]);
  });

  it("says the patterned messages in English as the server does", async () => {
    const patterned = scan.messages.filter(
      (message) => !neverShown(sample(message)) && !KNOWN_SERVER_MESSAGES[message.status]?.[message.text],
    );
    expect(patterned.length).toBeGreaterThan(20);
    for (const message of patterned) expect(serverMessage(message.status, sample(message))).toBe(sample(message));
    for (const { pattern } of SERVER_MESSAGE_PATTERNS)
      expect(
        patterned.some((message) => pattern.test(sample(message))),
        String(pattern),
      ).toBe(true);
    await setLanguage("de");
    expect(serverMessage(400, "Display name must be at most 200 characters")).toBe(
      "Anzeigename: höchstens 200 Zeichen",
    );
    expect(serverMessage(409, "You have 100 API tokens: delete one you no longer use first")).toBe(
      "Sie haben 100 API-Tokens: Löschen Sie zuerst einen, den Sie nicht mehr brauchen",
    );
    expect(serverMessage(400, "Nickname must be at most 20 characters")).toBe("Nickname must be at most 20 characters");
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
