import type { Request } from "express";

/** The label of requests no route matched (unknown paths, static files, requests refused before routing). */
export const UNMATCHED_ROUTE = "(unmatched)";

const ROUTE = Symbol("the route Express set");
const TEMPLATE = Symbol("the route's template");

interface Followed {
  [ROUTE]?: unknown;
  [TEMPLATE]?: string;
  baseUrl: string;
}

/**
 * `req.route`, kept as Express sets it, with the template it names worked out at that moment. One
 * getter and setter for every request: an accessor of closures made per request would give each
 * request object a shape of its own, and every later property read on it would miss V8's caches.
 */
const routeProperty: PropertyDescriptor = {
  configurable: true,
  enumerable: true,
  get(this: Followed) {
    return this[ROUTE];
  },
  set(this: Followed, value: { path?: unknown }) {
    this[ROUTE] = value;
    const tail = typeof value?.path === "string" ? value.path : "/*";
    const full = `${this.baseUrl}${tail}`;
    this[TEMPLATE] = full.length > 1 && full.endsWith("/") ? full.slice(0, -1) : full;
  },
};

/**
 * Follows which route answers a request, as its template with the routers' mount paths
 * (`/api/projects/:id`), never the raw URL. Express sets `req.route` on every route it enters
 * while `req.baseUrl` is that router's mount path; both are read at that moment because
 * `req.baseUrl` is unwound again when an error travels back out of the routers.
 */
export function followRouteTemplate(req: Request): () => string {
  Object.defineProperty(req, "route", routeProperty);
  const followed = req as unknown as Followed;
  return () => followed[TEMPLATE] ?? UNMATCHED_ROUTE;
}
