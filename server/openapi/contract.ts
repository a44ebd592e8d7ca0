import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { expect } from "vitest";
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

const documentOnce = () =>
  openApiDocument() as unknown as { paths: Record<string, Record<string, Documented>>; components: Json };

// strict: false lets a response's schema carry the document's `components`, which its $refs point into.
// The API's times are ISO 8601 with a zone (UTC, `…Z`, as the server writes them).
const ajv = new Ajv2020({
  strict: false,
  allErrors: true,
  formats: { "date-time": /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/ },
});
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

/** A test that asked for the raw bytes (a binary parser) gets a Buffer: its JSON is what the route answered. */
const jsonOf = (body: unknown): unknown => (Buffer.isBuffer(body) ? JSON.parse(body.toString("utf8")) : body);

function validatorFor(key: string, schema: Json): ValidateFunction {
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile({ ...schema, components: documentOnce().components });
    validators.set(key, validate);
  }
  return validate;
}

/**
 * What is wrong with an answer, measured against the OpenAPI document: a status its operation does
 * not document, a header it promises missing, a JSON body its schema refuses. A route the document
 * does not hold is a problem unless `unknownRoutes` is "skip" (the suite-wide hook: HTML pages).
 */
export function contractProblems(
  res: AnswerLike,
  method: string,
  path: string,
  options: { unknownRoutes?: "fail" | "skip" } = {},
): string[] {
  const { paths } = documentOnce();
  const verb = method.toLowerCase() === "head" ? "get" : method.toLowerCase();
  const where = `${method.toUpperCase()} ${path}`;
  const template = templateOf(Object.keys(paths), path);
  const operation = template ? paths[template][verb] : undefined;
  if (!operation) return options.unknownRoutes === "skip" ? [] : [`${where} is not in the OpenAPI document`];
  const answer = operation.responses[String(res.status)];
  if (!answer) return [`${where} answered ${res.status}, which its operation does not document`];
  const problems = Object.keys(answer.headers ?? {})
    .filter((name) => res.headers[name.toLowerCase()] === undefined)
    .map((name) => `${where} ${res.status} lacks its ${name} header`);
  const schema = answer.content?.["application/json"]?.schema;
  if (!schema || verb !== method.toLowerCase()) return problems;
  const type = String(res.headers["content-type"] ?? "");
  if (!/^application\/json\b/.test(type))
    return [...problems, `${where} ${res.status} answered ${type || "no body"}, not JSON`];
  const validate = validatorFor(`${verb} ${template} ${res.status}`, schema);
  if (!validate(jsonOf(res.body)))
    problems.push(`${where} ${res.status}: body against the document: ${ajv.errorsText(validate.errors?.slice(0, 5))}`);
  return problems;
}

/** Fails the test unless the answer is one the OpenAPI document gives this route (contractProblems). */
export function expectMatchesContract(res: AnswerLike, method: string, path: string): void {
  const problems = contractProblems(res, method, path);
  expect(problems, problems.join("\n")).toEqual([]);
}
