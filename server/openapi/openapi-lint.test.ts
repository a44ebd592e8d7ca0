import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { openApiDocument } from "./document";

const run = promisify(execFile);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-openapi-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: Array<{ ruleId: string; severity: string; message: string }>;
}

describe("the OpenAPI document under @redocly/cli lint", () => {
  it("has no errors under the recommended rules", async () => {
    const file = path.join(dir, "openapi.json");
    fs.writeFileSync(file, JSON.stringify(openApiDocument()));
    const cli = path.resolve("node_modules/.bin/redocly");
    // No telemetry or update check: the test must not reach the network.
    const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" };
    const { stdout } = await run(cli, ["lint", file, "--format=json"], { cwd: dir, env }).catch(
      (err: { stdout?: string }) => ({ stdout: err.stdout ?? "" }),
    );
    const report = JSON.parse(stdout) as LintReport;
    expect(report.problems.filter((p) => p.severity === "error")).toEqual([]);
    expect(report.totals.errors).toBe(0);
  }, 60_000);
});
