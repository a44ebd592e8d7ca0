import type { Request } from "express";

/** The label of requests no route matched (unknown paths, static files, requests refused before routing). */
export const UNMATCHED_ROUTE = "(unmatched)";

/**
 * Follows which route answers a request, as its template with the routers' mount paths
 * (`/api/projects/:id`), never the raw URL. Express sets `req.route` on every route it enters
 * while `req.baseUrl` is that router's mount path; both are read at that moment because
 * `req.baseUrl` is unwound again when an error travels back out of the routers.
 */
export function followRouteTemplate(req: Request): () => string {
  let template: string | undefined;
  let route: unknown;
  Object.defineProperty(req, "route", {
    configurable: true,
    enumerable: true,
    get: () => route,
    set(value: { path?: unknown }) {
      route = value;
      const tail = typeof value?.path === "string" ? value.path : "/*";
      const full = `${req.baseUrl}${tail}`;
      template = full.length > 1 && full.endsWith("/") ? full.slice(0, -1) : full;
    },
  });
  return () => template ?? UNMATCHED_ROUTE;
}
