import http, { type IncomingMessage, type ServerOptions, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Express } from "express";

/**
 * Options for `http.createServer` under which each request and response is made with Express's
 * prototypes (`app.request`, `app.response`) from the start.
 *
 * Express otherwise swaps the prototypes of every request and response as it arrives
 * (`Object.setPrototypeOf`). V8 then cannot reuse shapes for what is added to those objects after
 * the swap (`req.next`, `req.params`, `res.locals`…): every request gets about fifteen new shapes,
 * and every property read on a request or a response, in Node's HTTP code, the router and ours,
 * misses its inline cache (19% of the main thread on a page of projects). With the prototype
 * already in place, Express's swap changes nothing.
 */
export function expressBornServerOptions(app: Express): ServerOptions {
  // Node's HTTP classes are plain constructor functions, so a subclass in the same style can
  // give them any prototype that inherits from theirs, as app.request and app.response do.
  function ExpressRequest(this: IncomingMessage, socket: Socket) {
    http.IncomingMessage.call(this, socket);
  }
  ExpressRequest.prototype = app.request;
  function ExpressResponse(this: ServerResponse, req: IncomingMessage, options?: unknown) {
    (http.ServerResponse as unknown as (req: IncomingMessage, options?: unknown) => void).call(this, req, options);
  }
  ExpressResponse.prototype = app.response;
  // V8 sizes a constructor's objects by the properties its body assigns plus those of the
  // constructors it inherits statically from, as a class's would: without this link the ~30
  // properties Node adds to each request and response grew their property store several times.
  Object.setPrototypeOf(ExpressRequest, http.IncomingMessage);
  Object.setPrototypeOf(ExpressResponse, http.ServerResponse);
  return {
    IncomingMessage: ExpressRequest as unknown as typeof IncomingMessage,
    ServerResponse: ExpressResponse as unknown as typeof ServerResponse,
  };
}
