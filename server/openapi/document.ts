import { z } from "zod";
import type { ListSpec } from "../http/list-query";
import { VERSION } from "../version";
import { operations } from "./catalogue";
import type { Access, Answer, Operation, RequestBody } from "./operation";
import { components, staleSchema } from "./schemas";

type Json = Record<string, unknown>;

const COMPONENT = "#/components/schemas/";
const LARGEST_SAFE = Number.MAX_SAFE_INTEGER;

/**
 * A zod schema's JSON Schema (draft 2020-12, OpenAPI 3.1's own): named schemas become $refs to
 * the document's components; zod's bounds of a safe integer, which say nothing, are left out.
 */
function tidy(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(tidy);
  if (!node || typeof node !== "object") return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "$schema" || key === "$id" || key === "$defs") continue;
    if (key === "$ref" && typeof value === "string") out[key] = value.replace(/^#\/\$defs\//, COMPONENT);
    else if ((key === "minimum" || key === "maximum") && Math.abs(value as number) === LARGEST_SAFE) continue;
    else out[key] = tidy(value);
  }
  return out;
}

function jsonSchema(schema: z.ZodType, io: "input" | "output"): Json {
  const id = components.get(schema)?.id;
  if (id) return { $ref: `${COMPONENT}${id}` };
  return tidy(z.toJSONSchema(schema, { metadata: components, io, unrepresentable: "any" })) as Json;
}

function componentSchemas(): Json {
  const { schemas } = z.toJSONSchema(components, {
    uri: (id) => `${COMPONENT}${id}`,
    io: "output",
    unrepresentable: "any",
  });
  return tidy(schemas) as Json;
}

const TAGS: Record<string, string> = {
  Identity: "Sign-up, sign-in and sessions; public",
  Me: "The signed-in user's own profile, access and notifications",
  "API tokens": "Tokens `pd_…` for scripts and integrations; managed when signed in",
  "Two-factor": "One's own authenticator-app codes and recovery codes",
  Sessions: "Where one is signed in, and signing sessions out",
  Passkeys: "One's own passkeys (WebAuthn): add, name, remove",
  Users: "Approving staff and their roles (admins)",
  Clients: "The studio's clients",
  Contacts: "A client's people, whom deliveries are mailed to",
  Projects: "Shoots: their photos, cover and order",
  Delivery: "Publishing, the delivery link, sending it and what the client did with it",
  Favourites: "What the clients chose on their delivery pages",
  Photos: "Uploads, records and files of a project's photos",
  Studio: "Branding, storage and counts",
  Reference: "This document",
  "Delivery page": "The JSON a client's delivery page reads and writes (`/d/{token}`)",
  Webhooks: "Signed POSTs to your endpoints when something happens (admins)",
};

const openApiPath = (path: string) => path.replace(/:(\w+)/g, "{$1}");

const header = (description: string, schema: Json = { type: "string" }) => ({ description, schema });
const HEADERS = {
  ETag: header('The record\'s version, `"<version>"`: send it back as If-Match'),
  "X-Total-Count": header("How many records the list holds before `_start`/`_end`", { type: "integer" }),
  "Retry-After": header("Seconds to wait before trying again", { type: "integer" }),
  Location: header("Where to go"),
};

const ERROR_TEXT: Record<number, string> = {
  400: "The request is malformed or a field is invalid (`errors` names them)",
  401: "Not signed in, or the token has expired or was deleted",
  403: "Not allowed: not approved, not an admin, or the API token's scope is too small",
  404: "No such record or route",
  408: "The body did not arrive in time (BODY_TIMEOUT_SECONDS)",
  409: "Conflicts with the record's state (e.g. the project is published)",
  410: "The delivery link has expired",
  412: "If-Match names another version, or a precondition failed",
  413: "The body or file is too large",
  415: "The file or body is not of a type accepted",
  416: "The range asked for lies outside the file",
  429: "Too many requests",
  503: "Being updated: back soon",
  507: "The server's disk is full",
};

function errorAnswer(status: number): Json {
  const answer: Json = {
    description: ERROR_TEXT[status],
    content: { "application/json": { schema: { $ref: `${COMPONENT}Error` } } },
  };
  if (status === 429 || status === 503) answer.headers = { "Retry-After": HEADERS["Retry-After"] };
  return answer;
}

function answerObject(answer: Answer): Json {
  const headers: Json = {};
  if (answer.etag) headers.ETag = HEADERS.ETag;
  if (answer.total) headers["X-Total-Count"] = HEADERS["X-Total-Count"];
  if (answer.location) headers.Location = HEADERS.Location;
  const out: Json = { description: answer.description };
  if (Object.keys(headers).length > 0) out.headers = headers;
  if (answer.schema) out.content = { "application/json": { schema: jsonSchema(answer.schema, "output") } };
  if (answer.file) out.content = { [answer.file]: { schema: { type: "string", contentMediaType: answer.file } } };
  return out;
}

const query = (name: string, description: string, schema: Json = { type: "string" }) => ({
  name,
  in: "query",
  description,
  schema,
});

const OPERATOR_TEXT: Record<string, string> = {
  ne: "not equal to",
  gte: "at least",
  lte: "at most",
  like: "contains (case-insensitive)",
};

/** `_start`, `_end`, `_sort`, `_order`, `q` and the filters a list's ListSpec allows (server/http/list-query.ts). */
function listParameters(spec: ListSpec): Json[] {
  const window = [
    query("_start", "First row (0-based) of the page", { type: "integer", minimum: 0 }),
    query("_end", "Row after the page's last", { type: "integer", minimum: 0 }),
  ];
  const sortable = Object.keys(spec.sortable);
  if (sortable.length === 0) return window;
  const sorting = [
    query("_sort", `Fields to sort by, comma-separated: ${sortable.join(", ")}`),
    query("_order", "`asc` or `desc` for each `_sort` field, comma-separated"),
  ];
  const search = spec.searchColumn ? [query("q", "Case-insensitive text the name contains")] : [];
  const filters = Object.entries(spec.filterable).flatMap(([field, { type }]) => {
    const value = { int: { type: "integer" }, text: { type: "string" }, bool: { type: "boolean" } }[type];
    const operators = type === "text" ? ["ne", "gte", "lte", "like"] : ["ne", "gte", "lte"];
    return [
      { ...query(field, `Equal to (repeat for any of)`, { type: "array", items: value }), explode: true },
      ...operators.map((op) => query(`${field}_${op}`, `${field} ${OPERATOR_TEXT[op]}`, value)),
    ];
  });
  return [...window, ...sorting, ...search, ...filters];
}

function queryParameters(schema: z.ZodObject): Json[] {
  const { properties = {}, required = [] } = jsonSchema(schema, "input") as {
    properties?: Record<string, Json>;
    required?: string[];
  };
  return Object.entries(properties).map(([name, schema]) => ({
    name,
    in: "query",
    required: required.includes(name),
    schema,
  }));
}

function pathParameters(path: string): Json[] {
  return [...path.matchAll(/:(\w+)/g)].map(([, name]) => ({
    name,
    in: "path",
    required: true,
    schema:
      name === "id" || name === "visitorId" || name === "n" ? { type: "integer", minimum: 1 } : { type: "string" },
  }));
}

function requestBody(body: RequestBody): Json {
  if ("json" in body)
    return {
      required: body.required ?? true,
      content: { "application/json": { schema: jsonSchema(body.json, "input") } },
    };
  if ("binary" in body)
    return {
      required: true,
      content: { [body.binary]: { schema: { type: "string", contentMediaType: body.binary } } },
    };
  const file = { type: "string", contentMediaType: "application/octet-stream" };
  const schema =
    body.multipart === "file"
      ? { type: "object", properties: { file }, required: ["file"] }
      : { type: "object", properties: { files: { type: "array", items: file, maxItems: 200 } }, required: ["files"] };
  return { required: true, content: { "multipart/form-data": { schema } } };
}

const SCOPE_TEXT: Record<Access, string> = {
  staff: "An approved staff member; an API token of scope `read` only for GET, `write` or `admin` for any.",
  admin: "An admin; an API token of scope `admin`.",
  signIn: "An approved user's sign-in token; API tokens are refused (403).",
  signedIn: "Any signed-in user, approved or not (either kind of token).",
  signedLink: "The signed link an attachment carries (`?exp=…&sig=…`), or a bearer token of an approved user.",
  visitor: "A delivery page's visitor: the link's token in the path, the passcode's and visitor's cookies.",
  public: "No authentication.",
};

const BEARER_ONLY = new Set<Access>(["staff", "admin", "signIn", "signedIn"]);

/** The statuses every route of its kind may answer, besides its own. */
function impliedErrors(op: Operation): number[] {
  const errors = new Set<number>(op.errors ?? []);
  if (BEARER_ONLY.has(op.access)) [401, 403, 429].forEach((s) => errors.add(s));
  if (op.path.includes(":")) [400, 404].forEach((s) => errors.add(s));
  if (op.list || op.query) errors.add(400);
  if (op.body) [400, 408, 413, 415].forEach((s) => errors.add(s));
  if (op.ifMatch) [400, 412].forEach((s) => errors.add(s));
  if (op.method !== "get") errors.add(507);
  return [...errors].sort((a, b) => a - b);
}

function operationObject(op: Operation): Json {
  const parameters = [
    ...pathParameters(op.path),
    ...(op.list ? listParameters(op.list) : []),
    ...(op.query ? queryParameters(op.query) : []),
  ];
  if (op.ifMatch)
    parameters.push({
      name: "If-Match",
      in: "header",
      description: "Change only this version (its ETag); otherwise 412 with the current record",
      schema: { type: "string" },
    });
  const responses: Json = {};
  for (const answer of op.answers) responses[answer.status] = answerObject(answer);
  for (const status of impliedErrors(op)) responses[status] = errorAnswer(status);
  if (op.ifMatch)
    responses[412] = {
      description: "Someone else saved the record: the current one, and who saved it",
      headers: { ETag: HEADERS.ETag },
      content: { "application/json": { schema: jsonSchema(staleSchema(op.ifMatch), "output") } },
    };
  return {
    tags: [op.tag],
    summary: op.summary,
    description: [op.description, SCOPE_TEXT[op.access]].filter(Boolean).join("\n\n"),
    operationId: operationId(op),
    ...(BEARER_ONLY.has(op.access) ? {} : { security: op.access === "signedLink" ? [{}, { bearerAuth: [] }] : [] }),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(op.body ? { requestBody: requestBody(op.body) } : {}),
    responses,
  };
}

function operationId(op: Operation): string {
  const words = op.path
    .split("/")
    .filter((part) => part && part !== "api")
    .map((part) => (part.startsWith(":") ? `by-${part.slice(1)}` : part));
  return [op.method, ...words]
    .join("-")
    .replace(/[^a-zA-Z0-9]+(.)/g, (_m, c: string) => c.toUpperCase())
    .replace(/[^a-zA-Z0-9]/g, "");
}

let built: Json | undefined;

/**
 * The OpenAPI 3.1 document of every JSON route (catalogue.ts), built from the routers' own zod
 * schemas on first use and kept for the process (the route /api/openapi.json, the contract checks).
 */
export function openApiDocument(): Json {
  return (built ??= buildDocument(VERSION));
}

function buildDocument(version: string): Json {
  const paths: Record<string, Json> = {};
  for (const op of operations) (paths[openApiPath(op.path)] ??= {})[op.method] = operationObject(op);
  return {
    openapi: "3.1.0",
    info: {
      title: "Photodrop API",
      version,
      description:
        "The back office's API: every route under /api and the JSON routes of a delivery page under /d. " +
        "Authenticate with `Authorization: Bearer <token>`: a sign-in's access token (POST /api/auth/login) " +
        "or an API token `pd_…` (the web app's user menu → API tokens). Lists take the parameters of " +
        "@refinedev/simple-rest and answer X-Total-Count. Every refusal is `{statusCode, message, errors?}`.",
      license: { name: "Proprietary", identifier: "LicenseRef-Photodrop" },
    },
    servers: [{ url: "/" }],
    security: [{ bearerAuth: [] }],
    tags: [...new Set(operations.map((op) => op.tag))].map((name) =>
      TAGS[name] ? { name, description: TAGS[name] } : { name },
    ),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description:
            "A sign-in's access token (a JWT, one hour) or an API token `pd_…`; an API token's scope " +
            "(`read`, `write`, `admin`) limits what it may call.",
        },
      },
      schemas: componentSchemas(),
    },
  };
}
