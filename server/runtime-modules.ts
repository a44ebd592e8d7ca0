import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

declare const PHOTODROP_COMPILED: boolean;

/** True in the production build, which defines PHOTODROP_COMPILED (scripts/build.mjs); false under tsx and vitest. */
const compiled = typeof PHOTODROP_COMPILED !== "undefined" && PHOTODROP_COMPILED;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export interface RuntimeModule {
  /** The TypeScript source's file name, e.g. `20261123000100_create_users.ts`: the name knex records. */
  name: string;
  load(): Promise<unknown>;
}

/**
 * The migration or seed modules of a folder, in name order, loaded at run time: the TypeScript
 * sources under tsx and vitest, their compiled copies in dist/ in the production build. Either
 * way a module keeps its source name, so a database migrated by one is current for the other.
 */
export function runtimeModules(folder: "migrations" | "seeds", pattern: RegExp): RuntimeModule[] {
  // import.meta.dirname is the bundle's own folder (dist/server); import.meta.url names the source.
  const dir = compiled ? path.resolve(import.meta.dirname, "..", folder) : path.join(root, folder);
  const extension = compiled ? ".js" : ".ts";
  return fs
    .readdirSync(dir)
    .filter((file) => file.endsWith(extension))
    .map((file) => `${file.slice(0, -extension.length)}.ts`)
    .filter((name) => pattern.test(name))
    .sort()
    .map((name) => ({
      name,
      load: () => import(pathToFileURL(path.join(dir, name.replace(/\.ts$/, extension))).href),
    }));
}
