import type { Request, RequestHandler } from "express";

const RELEASE = Symbol("release the body deadline");
type WithDeadline = Request & { [RELEASE]?: () => void };

/**
 * A body must arrive whole within `seconds` of the request, however slowly it trickles, or the
 * request ends with 408 and its connection closes (Node's own request timeout is 300 s): whatever
 * its type, even one no route reads, unless a handler that reads it under a timeout of its own
 * (uploads) calls `releaseBodyDeadline`.
 */
export function bodyTimeout(seconds: number): RequestHandler {
  return (req, res, next) => {
    const hasBody = req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
    if (!hasBody || req.complete) return next();
    const timer = setTimeout(() => {
      if (req.complete) return;
      req.unpipe();
      res.once("finish", () => req.socket.destroy());
      if (res.headersSent) return void req.socket.destroy();
      res
        .status(408)
        .set({ Connection: "close", "Cache-Control": "no-store" })
        .json({ statusCode: 408, message: "Request body timed out" });
    }, seconds * 1000);
    timer.unref();
    // Not cleared when the answer is sent: a body still trickling after it (one no route read)
    // would otherwise hold the connection open for as long as the client likes.
    const clear = () => clearTimeout(timer);
    (req as WithDeadline)[RELEASE] = clear;
    req.once("end", clear);
    req.once("close", clear);
    next();
  };
}

/** The body is read from here on under the caller's own timeout: the whole-body deadline no longer applies. */
export function releaseBodyDeadline(req: Request): void {
  (req as WithDeadline)[RELEASE]?.();
}
