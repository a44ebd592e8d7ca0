import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { AppContext } from "../context";
import type { HttpError } from "../http/errors";
import { answerError } from "../http/plain-answers";
import { clientPage, languageHeaders, messagePage } from "./message-page";
import { DownloadsOffError } from "./download-choices";
import { BeingUpdatedError } from "./being-updated.service";
import { GoneError } from "./delivery.service";

const ZIP_PATH = /^\/(?:d\/[^/]+\/(?:all|web)\.zip|published\/[^/]+)\/?$/i;

/** A person who opened a ZIP link in a browser (not an API client, which keeps its JSON). */
export function isZipPageRequest(req: IncomingMessage): boolean {
  const path = (req.url ?? "/").split("?")[0];
  return ZIP_PATH.test(path) && (req.headers.accept ?? "").includes("text/html");
}

/** The catalogue's title and text for the error (server/i18n/locales). */
function wordsFor(err: unknown, answer: HttpError): { title: string; text: string } {
  if (err instanceof DownloadsOffError) return { title: "message.downloadsOffTitle", text: "gallery.noDownloads" };
  if (err instanceof BeingUpdatedError) return { title: "message.updatingTitle", text: "message.updatingText" };
  if (answer.statusCode === 410) return { title: "message.expiredTitle", text: "message.expiredText" };
  if (answer.statusCode === 404) return { title: "message.unknownZipTitle", text: "message.unknownText" };
  if (answer.statusCode === 401) return { title: "passcode.title", text: "message.passcodeFirstText" };
  if (answer.statusCode === 429) return { title: "favourites.errors.tooMany", text: "message.tryLaterText" };
  return { title: "message.errorTitle", text: "message.tryLaterText" };
}

/**
 * The studio's branded page for a ZIP link's error, in the language the gallery would show
 * (`linkLanguage`: the project's, when the link was found; null: the studio's); the JSON answer
 * if the page cannot be made.
 */
export async function answerZipErrorPage(
  ctx: AppContext,
  req: IncomingMessage,
  res: ServerResponse,
  err: unknown,
  answer: HttpError,
  baseHeaders: Readonly<OutgoingHttpHeaders>,
  linkLanguage: string | null = null,
): Promise<void> {
  let html: string;
  let language: ReturnType<typeof languageHeaders>;
  try {
    const { title, text } = wordsFor(err, answer);
    const project = err instanceof BeingUpdatedError || err instanceof GoneError ? err.language : linkLanguage;
    const page = await clientPage(ctx, req, project);
    html = messagePage(page, title, text);
    language = languageHeaders(page.tr);
  } catch {
    return answerError(req, res, answer, baseHeaders);
  }
  if (res.headersSent) return;
  res.writeHead(answer.statusCode, {
    ...baseHeaders,
    ...answer.headers,
    ...language,
    "Content-Type": "text/html; charset=utf-8",
    "Content-Length": Buffer.byteLength(html),
    "Cache-Control": "no-store",
    "X-Robots-Tag": "noindex",
  });
  res.end(req.method === "HEAD" ? undefined : html);
}
