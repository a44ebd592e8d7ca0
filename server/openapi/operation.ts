import type { z } from "zod";
import type { ListSpec } from "../http/list-query";

export type Method = "get" | "post" | "put" | "patch" | "delete";

/**
 * Who may call a route: `staff` (bearer: a sign-in's access token or an API token `pd_…`, approved
 * user; an API token's scope `read` only for GET), `admin` (an admin; a token of scope `admin`),
 * `signIn` (an approved user's sign-in token; API tokens refused), `signedIn` (any signed-in user,
 * approved or not), `visitor` (a delivery page's visitor: the link's token in the path and its
 * cookies), `signedLink` (a link's signature in the query, or a bearer token), `public` (nobody
 * needs to be known).
 */
export type Access = "staff" | "admin" | "signIn" | "signedIn" | "visitor" | "signedLink" | "public";

/** What a route answers when it succeeds. */
export interface Answer {
  status: number;
  description: string;
  /** A JSON body; an array schema for lists. */
  schema?: z.ZodType;
  /** The body is a file of this media type (`image/*`, …), not JSON. */
  file?: string;
  /** The record's version as a strong ETag. */
  etag?: boolean;
  /** X-Total-Count: the list's length before `_start`/`_end`. */
  total?: boolean;
  /** A redirect's Location. */
  location?: boolean;
}

/** The request's body: the zod schema the router validates it with, or a file upload. */
export type RequestBody =
  { json: z.ZodType; required?: boolean } | { multipart: "file" | "files" } | { binary: string };

/** One route as the document describes it. Paths are Express's (`/api/clients/:id`). */
export interface Operation {
  method: Method;
  path: string;
  summary: string;
  description?: string;
  tag: string;
  access: Access;
  /** The list parameters of `@refinedev/simple-rest` a list route reads (server/http/list-query.ts). */
  list?: ListSpec;
  /** Further query parameters, as the zod object the route parses them with. */
  query?: z.ZodObject;
  body?: RequestBody;
  /** Takes If-Match and answers 412 with the current record when it names another version. */
  ifMatch?: z.ZodType;
  answers: Answer[];
  /** Statuses besides those the access, parameters, body and method imply (see document.ts). */
  errors?: number[];
}

/** An entry of routesOf: the route without its tag and access. */
export type Route = Omit<Operation, "tag" | "access">;

/** Routes of one tag and one access, so the entries need not repeat them. */
export const routesOf = (tag: string, access: Access, routes: Route[]): Operation[] =>
  routes.map((route) => ({ ...route, tag, access }));

/** A 200 answer with a JSON body. */
export const ok = (schema: z.ZodType, description = "OK"): Answer => ({ status: 200, description, schema });

/** A 204 answer: done, no body. */
export const noContent: Answer = { status: 204, description: "Done; no body" };
