import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/harness";
import { operations } from "./catalogue";
import { routeTable } from "./route-table";

/** Routes the document leaves out on purpose: none answers JSON. */
const NOT_DOCUMENTED: Record<string, string> = {
  "get /healthz": "operations probe (plain text), not part of the API",
  "get /readyz": "operations probe (plain text), not part of the API",
  "get /metrics": "Prometheus text for the operator's scraper",
  "get /api/docs": "the reference page itself (HTML)",
  "get /api/docs/init.js": "the reference page's script",
  "get /api/docs/:asset": "swagger-ui's own script and style",
  "get /d/logo/:name": "the studio's logo (an image)",
  "get /d/:token": "the delivery page (HTML) and a recipient's link to it (a redirect)",
  "post /d/:token/unlock": "the delivery page's passcode form (HTML form post, redirect)",
  "get /unsubscribe/:token": "the unsubscribe page (HTML)",
  "post /unsubscribe/:token": "the unsubscribe form (HTML form post) and RFC 8058 one-click",
};
/** Non-string paths of the route table: the web app's catch-all. */
const WEB_APP = /^\/\^/;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const key = (method: string, path: string) => `${method.toLowerCase()} ${path}`;

describe("the OpenAPI document and Express's route table", () => {
  it("documents every route Express answers, except the listed non-JSON ones", () => {
    const routes = routeTable(t.app).filter((r) => !WEB_APP.test(r.path));
    const documented = new Set(operations.map((op) => key(op.method, op.path)));
    const missing = routes
      .map((r) => key(r.method, r.path))
      .filter((k) => !documented.has(k) && !(k in NOT_DOCUMENTED));
    expect(missing).toEqual([]);
    // The walk itself found the app's routes, nested routers included.
    expect(routes.length).toBeGreaterThan(80);
    expect(routes).toContainEqual({ method: "delete", path: "/d/:token/favourites/:n" });
  });

  it("documents no route Express does not answer, and each route once", () => {
    const routes = new Set(routeTable(t.app).map((r) => key(r.method, r.path)));
    const documented = operations.map((op) => key(op.method, op.path));
    expect(documented.filter((k) => !routes.has(k))).toEqual([]);
    expect(documented.length).toBe(new Set(documented).size);
    // Every exclusion names a route that still exists.
    expect(Object.keys(NOT_DOCUMENTED).filter((k) => !routes.has(k))).toEqual([]);
  });
});

describe("GET /api/openapi.json", () => {
  it("answers the OpenAPI 3.1 document without authentication, the same bytes each time", async () => {
    const first = await request(t.app).get("/api/openapi.json");
    expect(first.status).toBe(200);
    expect(first.headers["content-type"]).toMatch(/^application\/json/);
    expect(first.body.openapi).toBe("3.1.0");
    expect(first.body.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    const operationCount = Object.values(first.body.paths as Record<string, object>).reduce(
      (n, methods) => n + Object.keys(methods).length,
      0,
    );
    expect(operationCount).toBe(operations.length);
    const second = await request(t.app).get("/api/openapi.json");
    expect(second.text).toBe(first.text);
  });

  it("describes a list with its parameters and X-Total-Count, and a write with the router's own schema", async () => {
    const { body } = await request(t.app).get("/api/openapi.json");
    const list = body.paths["/api/projects"].get;
    const names = list.parameters.map((p: { name: string }) => p.name);
    expect(names).toEqual(
      expect.arrayContaining(["_start", "_end", "_sort", "_order", "q", "clientId", "clientId_ne"]),
    );
    expect(list.responses["200"].headers["X-Total-Count"]).toBeDefined();
    const create = body.paths["/api/clients"].post;
    expect(create.requestBody.content["application/json"].schema).toMatchObject({
      type: "object",
      properties: { name: { type: "string", minLength: 1, maxLength: 200 } },
      required: ["name"],
    });
    const change = body.paths["/api/clients/{id}"].patch;
    expect(change.responses["200"].headers.ETag).toBeDefined();
    expect(Object.keys(change.responses)).toEqual(expect.arrayContaining(["400", "401", "403", "404", "412", "429"]));
    expect(change.responses["429"].headers["Retry-After"]).toBeDefined();
    const upload = body.paths["/api/attachments/projects/{id}/upload"].post;
    expect(upload.requestBody.content["multipart/form-data"].schema.required).toEqual(["file"]);
    expect(Object.keys(upload.responses)).toEqual(expect.arrayContaining(["409", "413", "415", "507"]));
  });

  it("leaves every $ref pointing at a schema the document holds", async () => {
    const { text, body } = await request(t.app).get("/api/openapi.json");
    const refs = [...text.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(50);
    expect([...new Set(refs)].filter((name) => !(name in body.components.schemas))).toEqual([]);
    expect(text).not.toContain("#/$defs/");
  });
});
