import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Express } from "express";
import expressStaticGzip from "express-static-gzip";

export const adminDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../admin/dist");

const IMMUTABLE = "public, max-age=31536000, immutable";

/**
 * The built web app: files under assets/ carry a content hash in their name, so they are cached
 * for a year; they are sent pre-compressed (brotli, else gzip) when `vite build` left a .br/.gz
 * beside them. Every other GET falls back to index.html (never cached without a check) so deep
 * links load.
 */
export function serveWebApp(app: Express, dist = adminDist) {
  const index = path.join(dist, "index.html");
  app.use(
    expressStaticGzip(dist, {
      enableBrotli: true,
      orderPreference: ["br", "gzip"],
      index: false,
      serveStatic: {
        index: false,
        setHeaders: (res, filePath) => {
          const hashed = path.relative(dist, filePath).split(path.sep)[0] === "assets";
          res.setHeader("Cache-Control", hashed ? IMMUTABLE : "no-cache");
        },
      },
    }),
  );
  app.get(/^\/(?!api\/|api$|published\/|events$).*/, (_req, res, next) => {
    if (!fs.existsSync(index)) return next();
    res.set("Cache-Control", "no-cache");
    res.sendFile(index);
  });
}
