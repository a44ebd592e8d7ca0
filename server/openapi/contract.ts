import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { expect } from "vitest";
import { VERSION } from "../version";
import { openApiDocument } from "./document";

type Json = Record<string, unknown>;

interface Documented {
  responses: Record<string, { headers?: Json; content?: Record<string, { schema?: Json }> }>;
}

/** What supertest answers; only the parts the contract speaks of. */
export interface AnswerLike {
  status: number;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
}

let cached: { paths: Record<string, Record<string, Documented>>; components: Json } | undefined;
const documentOnce = () => (cached ??= openApiDocument(VERSION) as unknown as NonNullable<typeof cached>);

// strict: false lets a response's schema carry the document's `components`, which its $refs point into.
const ajv = new Ajv2020({ strict: false, allErrors: true });
const validators = new Map<string, ValidateFunction>();

/** The document's path template a request path falls under; literal segments win over `{param}`. */
function templateOf(paths: string[], requestPath: string): string | undefined {
  const segments = requestPath.split("?")[0].split("/");
  const fits = paths.filter((template) => {
    const parts = template.split("/");
    return parts.length === segments.length && parts.every((p, i) => p.startsWith("{") || p === segments[i]);
  });
  const literal = (template: string) => template.split("/").filter((p) => !p.startsWith("{")).length;
  return fits.sort((a, b) => literal(b) - literal(a))[0];
}

function validatorFor(key: string, schema: Json): ValidateFunction {
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile({ ...schema, components: documentOnce().components });
    validators.set(key, validate);
  }
  return validate;
}

/**
 * Fails unless the answer is one the OpenAPI document gives this route: its status documented,
 * its JSON body valid against that status's schema, and the headers it promises (ETag,
 * X-Total-Count, Retry-After, Location) present. `path` is the request's own (`/api/clients/12`).
 */
export function expectMatchesContract(res: AnswerLike, method: string, path: string): void {
  const { paths } = documentOnce();
  const template = templateOf(Object.keys(paths), path);
  const where = `${method.toUpperCase()} ${path}`;
  expect(template, `${where} is not in the OpenAPI document`).toBeDefined();
  const operation = paths[template!][method.toLowerCase()];
  expect(operation, `${method.toUpperCase()} ${template} is not in the OpenAPI document`).toBeDefined();
  const answer = operation.responses[String(res.status)];
  expect(answer, `${where} answered ${res.status}, which its operation does not document`).toBeDefined();
  for (const name of Object.keys(answer.headers ?? {}))
    expect(res.headers[name.toLowerCase()], `${where} ${res.status} lacks its ${name} header`).toBeDefined();
  const schema = answer.content?.["application/json"]?.schema;
  if (!schema) return;
  const validate = validatorFor(`${method} ${template} ${res.status}`, schema);
  const valid = validate(res.body);
  expect(valid ? [] : validate.errors, `${where} ${res.status}: body against the document`).toEqual([]);
}
