import fs from "node:fs";
import path from "node:path";

const IMPORT = /(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g;

/**
 * The test files under `folder` that reach `target` through their relative imports, directly or
 * through other helpers. `npm run test:pg` runs those that reach server/test/test-database.ts
 * (every test app, process and database goes through it): a file that never does has no
 * database to run on PostgreSQL, and `npm test` has already run it.
 */
export function testFilesReaching(folder: string, target: string): string[] {
  const tests = fs
    .readdirSync(folder, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".test.ts"))
    .map((file) => path.resolve(folder, file));
  // Every file the tests import, with who imports it; then back from the target to the tests.
  const importers = new Map<string, string[]>();
  const seen = new Set<string>();
  const pending = [...tests];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    for (const m of fs.readFileSync(file, "utf8").matchAll(IMPORT)) {
      const imported = resolveTs(path.resolve(path.dirname(file), m[1]));
      if (!imported) continue;
      importers.set(imported, [...(importers.get(imported) ?? []), file]);
      pending.push(imported);
    }
  }
  const reaching = new Set<string>();
  const back = [path.resolve(target)];
  for (let file = back.pop(); file !== undefined; file = back.pop()) {
    if (reaching.has(file)) continue;
    reaching.add(file);
    back.push(...(importers.get(file) ?? []));
  }
  return tests
    .filter((file) => reaching.has(file))
    .map((file) => path.relative(process.cwd(), file))
    .sort();
}

function resolveTs(base: string): string | undefined {
  const candidates = [base, `${base}.ts`, base.replace(/\.js$/, ".ts"), path.join(base, "index.ts")];
  return candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile());
}
