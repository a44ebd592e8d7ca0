import type { ErrorRequestHandler, RequestHandler } from "express";
import type { Logger } from "pino";
import { isDiskFull } from "../storage/disk-full";
import { HttpError, InsufficientStorageError, NotFoundError } from "./errors";

/** Body-parser and similar middleware signal client errors with these fields. */
interface ParserError {
  type?: string;
  status?: number;
  statusCode?: number;
  expose?: boolean;
}

function fromParserError(err: ParserError): HttpError | undefined {
  if (err.type === "entity.parse.failed") return new HttpError(400, "Malformed JSON in request body");
  if (err.type === "entity.too.large") return new HttpError(413, "Request body too large");
  if (err.type === "encoding.unsupported" || err.type === "charset.unsupported")
    return new HttpError(415, "Unsupported request encoding");
  // Express reports a path it cannot percent-decode as a URIError with status 400.
  if (err instanceof URIError) return new HttpError(400, "Malformed URL");
  const status = err.status ?? err.statusCode;
  if (err.expose && status && status >= 400 && status < 500) return new HttpError(status, "Bad request");
  return undefined;
}

/**
 * The answer for any error: its own when it is an HttpError, 507 for a full disk, 4xx for what a
 * body parser refused, otherwise a 500 (logged with the request's method and path).
 */
export function answerFor(err: unknown, logger: Logger, req: { method?: string; path: string }): HttpError {
  if (err instanceof HttpError) return err;
  if (isDiskFull(err)) {
    logger.warn({ err, method: req.method }, "the disk is full");
    return new InsufficientStorageError();
  }
  const known = fromParserError(err as ParserError);
  if (!known) logger.error({ err, method: req.method, url: req.path }, "unhandled error");
  return known ?? new HttpError(500, "Internal server error");
}

export function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (res.headersSent) return next(err);
    const answer = answerFor(err, logger, req);
    if (answer.headers) res.set(answer.headers);
    res.status(answer.statusCode).json({
      statusCode: answer.statusCode,
      message: answer.message,
      ...(answer.errors ? { errors: answer.errors } : {}),
    });
  };
}

export const apiNotFound: RequestHandler = (req, _res, next) =>
  next(new NotFoundError(`No route for ${req.method} ${req.baseUrl}${req.path}`));
