import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { AppContext } from "../context";
import type { HttpError } from "../http/errors";
import { answerError } from "../http/plain-answers";
import { GONE_TEXT, messagePage, UNKNOWN_TEXT } from "./message-page";
import { EXPIRED_MESSAGE } from "./delivery.service";
import { DownloadsOffError } from "./download-choices";
import { NO_DOWNLOADS_TEXT } from "./download-links-html";
import { BEING_UPDATED, BeingUpdatedError, UPDATING_TEXT } from "./being-updated.service";

const ZIP_PATH = /^\/(?:d\/[^/]+\/(?:all|web)\.zip|published\/[^/]+)\/?$/i;

/** A person who opened a ZIP link in a browser (not an API client, which keeps its JSON). */
export function isZipPageRequest(req: IncomingMessage): boolean {
  const path = (req.url ?? "/").split("?")[0];
  return ZIP_PATH.test(path) && (req.headers.accept ?? "").includes("text/html");
}

function wordsFor(err: unknown, answer: HttpError): { title: string; text: string } {
  if (err instanceof DownloadsOffError) return { title: "Downloads are not offered", text: NO_DOWNLOADS_TEXT };
  if (err instanceof BeingUpdatedError) return { title: BEING_UPDATED, text: UPDATING_TEXT };
  if (answer.statusCode === 410) return { title: EXPIRED_MESSAGE, text: GONE_TEXT };
  if (answer.statusCode === 404) return { title: "This download link does not exist", text: UNKNOWN_TEXT };
  return { title: answer.message, text: "Please try again later, or ask the studio." };
}

/** The studio's branded page for a ZIP link's error; the JSON answer if the page cannot be made. */
export async function answerZipErrorPage(
  ctx: AppContext,
  req: IncomingMessage,
  res: ServerResponse,
  err: unknown,
  answer: HttpError,
  baseHeaders: Readonly<OutgoingHttpHeaders>,
): Promise<void> {
  let html: string;
  try {
    const { title, text } = wordsFor(err, answer);
    html = await messagePage(ctx, title, text);
  } catch {
    return answerError(req, res, answer, baseHeaders);
  }
  if (res.headersSent) return;
  res.writeHead(answer.statusCode, {
    ...baseHeaders,
    ...answer.headers,
    "Content-Type": "text/html; charset=utf-8",
    "Content-Length": Buffer.byteLength(html),
    "Cache-Control": "no-store",
    "X-Robots-Tag": "noindex",
  });
  res.end(req.method === "HEAD" ? undefined : html);
}
