import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { RequestHandler } from "express";
import type { HttpError } from "./errors";

/**
 * The headers a middleware sets on every answer (helmet's security headers), recorded once, for
 * answers given without Express, which has no `next()` chain to run helmet in. (Not for speed:
 * helmet itself takes about 2 µs a call, about what setting the recorded headers takes.)
 */
export function recordedHeaders(middleware: RequestHandler): Readonly<OutgoingHttpHeaders> {
  const headers: OutgoingHttpHeaders = {};
  const res = {
    setHeader: (name: string, value: string | number | string[]) => {
      headers[name] = value;
      return res;
    },
    getHeader: (name: string) => headers[name],
    removeHeader: (name: string) => delete headers[name],
  };
  let synchronous = false;
  middleware({ headers: {}, method: "GET", url: "/" } as never, res as never, () => (synchronous = true));
  if (!synchronous) throw new Error("a recorded middleware must call next() at once");
  return Object.freeze(headers);
}

/** An HttpError as the one error middleware answers it: `{statusCode, message, errors?}`, never cached. */
export function answerError(
  req: IncomingMessage,
  res: ServerResponse,
  err: HttpError,
  baseHeaders: Readonly<OutgoingHttpHeaders>,
): void {
  const body = JSON.stringify({
    statusCode: err.statusCode,
    message: err.message,
    ...(err.errors ? { errors: err.errors } : {}),
  });
  res.writeHead(err.statusCode, {
    ...baseHeaders,
    ...err.headers,
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": "no-store",
  });
  res.end(req.method === "HEAD" ? undefined : body);
}
