import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { VERSION } from "./version";

const changelog = fs.readFileSync(new URL("../CHANGELOG.md", import.meta.url), "utf8");
/** Each `## [x.y.z] - date` section (and Unreleased) with its text up to the next. */
const releases = [
  ...changelog.matchAll(/^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?\n([\s\S]*?)(?=^## |(?![\s\S]))/gm),
];

describe("CHANGELOG.md", () => {
  it("has the version package.json gives as its newest release, with a date", () => {
    const numbered = releases.filter((r) => r[1] !== "Unreleased");
    expect(numbered[0]?.[1]).toBe(VERSION);
    expect(numbered[0]?.[2]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("says in every release what a studio does when upgrading", () => {
    expect(releases.length).toBeGreaterThan(1);
    for (const [, version, , body] of releases) expect(body, version).toMatch(/^Upgrading: \S/m);
  });

  it("lists releases newest first", () => {
    const numbers = releases.filter((r) => r[1] !== "Unreleased").map((r) => r[1].split(".").map(Number));
    const sorted = [...numbers].sort((a, b) => b[0] - a[0] || b[1] - a[1] || b[2] - a[2]);
    expect(numbers).toEqual(sorted);
  });
});
