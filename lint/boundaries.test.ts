import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const eslint = new ESLint({ cwd: root });

/** Lints source text as if it were the file at `file`, and returns the rules it broke. */
async function rulesBroken(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages.map((m) => m.ruleId ?? m.message);
}

describe("the import boundaries", () => {
  it("refuse a router importing a repository", async () => {
    const code = 'import { clientListSpec } from "./clients.repository";\nexport const spec = clientListSpec;\n';
    expect(await rulesBroken("server/clients/boundary-check.router.ts", code)).toContain(
      "import-x/no-restricted-paths",
    );
  });

  it("refuse a repository importing a service", async () => {
    const code = 'import * as service from "./clients.service";\nexport const s = service;\n';
    expect(await rulesBroken("server/clients/boundary-check.repository.ts", code)).toContain(
      "import-x/no-restricted-paths",
    );
  });

  it("refuse knex outside repositories and server/db", async () => {
    const code = 'import knex from "knex";\nexport const k = knex;\n';
    expect(await rulesBroken("server/clients/boundary-check.service.ts", code)).toContain(
      "@typescript-eslint/no-restricted-imports",
    );
    expect(await rulesBroken("server/clients/boundary-check.repository.ts", code)).toEqual([]);
  });

  it("refuse a web-app feature importing another feature's internals, not its index", async () => {
    const internals = 'import { ProjectShow } from "../projects/project-show";\nexport const P = ProjectShow;\n';
    expect(await rulesBroken("admin/src/features/clients/boundary-check.tsx", internals)).toContain(
      "import-x/no-restricted-paths",
    );
    const index = 'import { ProjectShow } from "../projects";\nexport const P = ProjectShow;\n';
    expect(await rulesBroken("admin/src/features/clients/boundary-check.tsx", index)).toEqual([]);
  });
});
