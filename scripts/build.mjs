// The production build: the server bundled into dist/server (Node runs it without a transpiler),
// migrations and seeds compiled beside it (knex loads them at run time), and the web app.
//   node scripts/build.mjs             build everything
//   node scripts/build.mjs --if-needed build only what is older than its sources (npm start)
//   node scripts/build.mjs --server    the server only
//   --outdir <folder>                  instead of dist/ (tests)
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outdirFlag = process.argv.indexOf("--outdir");
const dist = outdirFlag > 0 ? path.resolve(process.argv[outdirFlag + 1]) : path.join(root, "dist");
const ifNeeded = process.argv.includes("--if-needed");
const serverOnly = process.argv.includes("--server");

/** Entry points: the server, and every migration and seed. */
function entryPoints() {
  const folder = (name) =>
    fs
      .readdirSync(path.join(root, name))
      .filter((f) => f.endsWith(".ts"))
      .map((f) => path.join(root, name, f));
  return {
    "server/index": path.join(root, "server/index.ts"),
    ...Object.fromEntries(
      [...folder("migrations"), ...folder("seeds")].map((f) => [path.relative(root, f).replace(/\.ts$/, ""), f]),
    ),
  };
}

function newest(entry) {
  if (!fs.existsSync(entry)) return 0;
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...fs.readdirSync(entry).map((name) => newest(path.join(entry, name))));
}

const oldest = (file) => (fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0);

/**
 * Modules find files beside their sources through import.meta.url (the web app, seeds, page
 * assets). In the bundle every module would see the bundle's own URL, so each one gets its
 * source file's URL instead, relative to the bundle: the relative paths keep working.
 */
const sourceUrlPlugin = {
  name: "source-import-meta-url",
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const source = await fs.promises.readFile(args.path, "utf8");
      if (!source.includes("import.meta.url")) return { contents: source, loader: "ts" };
      const relative = path.relative(path.join(dist, "server"), args.path).split(path.sep).join("/");
      const url = `new URL(${JSON.stringify(relative)}, import.meta.url).href`;
      return { contents: source.replaceAll("import.meta.url", url), loader: "ts" };
    });
  },
};

async function buildServer() {
  const sources = ["server", "api", "migrations", "seeds", "package-lock.json"].map((p) => newest(path.join(root, p)));
  if (ifNeeded && oldest(path.join(dist, "server/index.js")) > Math.max(...sources)) return;
  fs.rmSync(dist, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: entryPoints(),
    outdir: dist,
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: true,
    logLevel: "warning",
    define: { PHOTODROP_COMPILED: "true" },
    plugins: [sourceUrlPlugin],
  });
  console.log("built dist/server");
}

function buildWebApp() {
  const sources = ["admin", "api", "package-lock.json"].map((p) =>
    p === "admin" ? newestExceptDist(path.join(root, p)) : newest(path.join(root, p)),
  );
  if (ifNeeded && oldest(path.join(root, "admin/dist/index.html")) > Math.max(...sources)) return;
  const result = spawnSync("npm", ["run", "build:admin"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function newestExceptDist(dir) {
  return Math.max(
    ...fs
      .readdirSync(dir)
      .filter((name) => name !== "dist")
      .map((name) => newest(path.join(dir, name))),
  );
}

await buildServer();
if (!serverOnly) buildWebApp();
