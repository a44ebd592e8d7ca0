import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import { compression, defineAlgorithm } from "vite-plugin-compression2";

const adminRoot = path.dirname(fileURLToPath(import.meta.url));
// These packages declare no "sideEffects", so the bundler keeps them whole even though only
// unused refine components (markdown field, CSV import/export) reach them.
const sideEffectFreePackages =
  /node_modules[\\/](react-markdown|remark-[^\\/]+|micromark[^\\/]*|mdast-[^\\/]+|hast-[^\\/]+|unist-[^\\/]+|unified|vfile[^\\/]*|property-information|papaparse)[\\/]/;

const apiServer = process.env.PHOTODROP_API ?? "http://127.0.0.1:3000";

export default defineConfig({
  root: adminRoot,
  plugins: [
    react(),
    // Pre-compressed beside each asset; the server sends the .br or .gz the browser accepts.
    compression({
      include: /\.(js|css|html|svg|json)$/,
      algorithms: [defineAlgorithm("brotliCompress"), defineAlgorithm("gzip", { level: 9 })],
    }),
  ],
  build: {
    outDir: path.join(adminRoot, "dist"),
    emptyOutDir: true,
    rolldownOptions: {
      treeshake: { moduleSideEffects: [{ test: sideEffectFreePackages, sideEffects: false }] },
      // Libraries change less often than the app: separate chunks stay cached across releases.
      // Only React and Refine's core are grouped (every page needs them); Mantine's components,
      // the tables and the drop zone load with the pages that use them, which keeps /login lean.
      output: {
        codeSplitting: {
          groups: [
            { name: "react", test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
            {
              name: "refine",
              test: /node_modules[\\/](@refinedev[\\/](core|react-router|simple-rest)|@tanstack[\\/](query-core|react-query)|lodash-es|qs|axios|query-string)[\\/]/,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      "/api": apiServer,
      "/published": apiServer,
      "/events": { target: apiServer, ws: true },
    },
  },
});
