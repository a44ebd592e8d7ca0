import { createRequire } from "node:module";
import path from "node:path";
import { Router } from "express";
import { openApiDocument } from "./document";

/** swagger-ui-dist's folder in node_modules: the page's script and style are its own files, no CDN. */
const swaggerUi = path.dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));

const ASSETS: Record<string, string> = {
  "swagger-ui.css": "swagger-ui.css",
  "swagger-ui-bundle.js": "swagger-ui-bundle.js",
};

// No inline script, so the Content-Security-Policy's script-src 'self' holds on this page too.
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Photodrop API reference</title>
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
</head>
<body>
<div id="docs"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/init.js"></script>
</body>
</html>
`;

// validatorUrl null: no badge fetched from swagger.io.
const INIT = `window.ui = SwaggerUIBundle({
  url: "/api/openapi.json",
  dom_id: "#docs",
  deepLinking: true,
  validatorUrl: null,
  persistAuthorization: false,
});
`;

let documentJson: string | undefined;

/** GET /api/openapi.json (built once per process) and the reference page /api/docs; public, mounted before authenticate. */
export function openApiRouter(): Router {
  const router = Router();
  router.get("/openapi.json", (_req, res) => {
    documentJson ??= JSON.stringify(openApiDocument());
    res.type("application/json").send(documentJson);
  });

  router.get("/docs", (_req, res) => {
    res.type("html").send(PAGE);
  });
  router.get("/docs/init.js", (_req, res) => {
    res.type("text/javascript").send(INIT);
  });
  router.get("/docs/:asset", (req, res, next) => {
    const file = Object.hasOwn(ASSETS, req.params.asset) ? ASSETS[req.params.asset] : undefined;
    if (!file) return next();
    res.set("Cache-Control", "public, max-age=3600");
    res.sendFile(path.join(swaggerUi, file));
  });

  return router;
}
