import type { RequestHandler } from "express";

/**
 * A non-multipart body must arrive whole within `seconds` of the request, however slowly it
 * trickles, or the request ends with 408 and its connection closes (Node's own request timeout is
 * 300 s). Uploads are left alone: they have their own idle timeout.
 */
export function bodyTimeout(seconds: number): RequestHandler {
  return (req, res, next) => {
    const hasBody = req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
    if (!hasBody || req.complete || req.is("multipart/form-data")) return next();
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
    const clear = () => clearTimeout(timer);
    req.once("end", clear);
    req.once("close", clear);
    res.once("close", clear);
    next();
  };
}
