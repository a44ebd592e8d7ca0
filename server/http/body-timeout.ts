import type { Request, RequestHandler } from "express";

/**
 * A body must arrive whole within `seconds` of the request, however slowly it trickles, or the
 * request ends with 408 and its connection closes (Node's own request timeout is 300 s). Multipart
 * bodies on the upload routes (`isUpload`) are left alone: they have their own idle timeout. Any
 * other body is held to the deadline whatever its type, even one no route reads.
 */
export function bodyTimeout(seconds: number, isUpload: (req: Request) => boolean): RequestHandler {
  return (req, res, next) => {
    const hasBody = req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
    if (!hasBody || req.complete || (req.is("multipart/form-data") && isUpload(req))) return next();
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
    req.once("end", clear);
    req.once("close", clear);
    next();
  };
}
