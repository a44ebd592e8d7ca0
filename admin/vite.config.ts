import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

const adminRoot = path.dirname(fileURLToPath(import.meta.url));
// These packages declare no "sideEffects", so the bundler keeps them whole even though only
// unused refine components (markdown field, CSV import/export) reach them.
const sideEffectFreePackages =
  /node_modules[\\/](react-markdown|remark-[^\\/]+|micromark[^\\/]*|mdast-[^\\/]+|hast-[^\\/]+|unist-[^\\/]+|unified|vfile[^\\/]*|property-information|papaparse)[\\/]/;

const apiServer = process.env.PHOTODROP_API ?? "http://127.0.0.1:3000";

export default defineConfig({
  root: adminRoot,
  plugins: [react()],
  build: {
    outDir: path.join(adminRoot, "dist"),
    emptyOutDir: true,
    rolldownOptions: {
      treeshake: { moduleSideEffects: [{ test: sideEffectFreePackages, sideEffects: false }] },
      // Libraries change less often than the app: separate chunks stay cached across releases.
      output: {
        codeSplitting: {
          groups: [
            { name: "react", test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
            { name: "mantine", test: /node_modules[\\/](@mantine|@emotion|@floating-ui|@radix-ui|react-remove-scroll[^\\/]*|react-transition-group|@tabler)[\\/]/ },
            { name: "refine", test: /node_modules[\\/](@refinedev|@tanstack|lodash-es|qs|axios|query-string)[\\/]/ },
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
