import { describe, expect, it } from "vitest";
import { loadConfig, settingDocs } from "./config";
import {
  envNamesIn,
  missingFromReference,
  readConfigSource,
  readReference,
  renderConfigReference,
} from "./config-reference";

describe("docs/configuration.md, the configuration reference", () => {
  it("is what `npm run docs:config` makes from server/config.ts today", async () => {
    // On failure: run `npm run docs:config` and commit docs/configuration.md with the change to config.ts.
    expect(readReference()).toBe(await renderConfigReference());
  });

  it("has a row for every name config.ts reads from the environment, in the schema or beside it", () => {
    const names = envNamesIn(readConfigSource());
    expect(names).toEqual(expect.arrayContaining(["PORT", "S3_ACCESS_KEY_ID", "ADMIN_PASSWORD", "METRICS_TOKEN"]));
    expect(names.sort()).toEqual(
      settingDocs()
        .map((s) => s.name)
        .sort(),
    );
    expect(missingFromReference(readConfigSource(), readReference())).toEqual([]);
  });

  it("notices a setting read in config.ts without its row, in the schema or ad hoc", () => {
    const source = readConfigSource();
    const inSchema = source.replace("  PORT: int(", "  NEW_SETTING: int(1, 0),\n  PORT: int(");
    expect(missingFromReference(inSchema, readReference())).toEqual(["NEW_SETTING"]);
    const adHoc = `${source}\nexport const later = (env: NodeJS.ProcessEnv) => env.OTHER_SETTING;\n`;
    expect(missingFromReference(adHoc, readReference())).toEqual(["OTHER_SETTING"]);
    expect(missingFromReference(`${source}\nprocess.env.THIRD;\n`, readReference())).toEqual(["THIRD"]);
  });

  it("renders a new setting as its own row, so the page differs until regenerated", async () => {
    const extra = { name: "NEW_SETTING", group: "limits" as const, description: "Something new.", default: "1" };
    const page = await renderConfigReference([...settingDocs(), extra]);
    expect(page).not.toBe(readReference());
    expect(missingFromReference("  NEW_SETTING: int(1, 0),\n", page)).toEqual([]);
  });

  it("gives each setting a group and a meaning, and a default the parser really uses", () => {
    const defaults = JSON.stringify(loadConfig({}));
    for (const setting of settingDocs()) {
      expect(setting.description.length, setting.name).toBeGreaterThan(10);
      if (setting.default === undefined) continue;
      expect(JSON.stringify(loadConfig({ [setting.name]: setting.default })), setting.name).toBe(defaults);
    }
  });

  it("gives a whole-number setting the range the parser enforces", () => {
    for (const setting of settingDocs()) {
      const range = /^a whole number, (\d+) (?:to (\d+)|or more)$/.exec(setting.values ?? "");
      if (!range) continue;
      const [min, max] = [Number(range[1]), range[2] === undefined ? undefined : Number(range[2])];
      expect(() => loadConfig({ [setting.name]: String(min) }), setting.name).not.toThrow();
      if (min > 0) expect(() => loadConfig({ [setting.name]: String(min - 1) }), setting.name).toThrow(setting.name);
      if (max !== undefined) {
        expect(() => loadConfig({ [setting.name]: String(max) }), setting.name).not.toThrow();
        expect(() => loadConfig({ [setting.name]: String(max + 1) }), setting.name).toThrow(setting.name);
      }
    }
  });
});
