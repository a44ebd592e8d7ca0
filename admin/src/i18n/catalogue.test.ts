import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import de from "./locales/de.json";
import en from "./locales/en.json";

const srcDir = path.resolve(import.meta.dirname, "..");
const root = path.resolve(srcDir, "../..");

type Catalogue = { [key: string]: string | Catalogue };

/** "a.b.c" → text, for every leaf of a catalogue. */
function flatten(catalogue: Catalogue, prefix = ""): Map<string, string> {
  const keys = new Map<string, string>();
  for (const [key, value] of Object.entries(catalogue)) {
    if (typeof value === "string") keys.set(prefix + key, value);
    else for (const [inner, text] of flatten(value, `${prefix}${key}.`)) keys.set(inner, text);
  }
  return keys;
}

const CATALOGUES = { en: flatten(en), de: flatten(de) };
const PLURAL = /_(zero|one|two|few|many|other)$/;
/** A key as code names it: plural forms count under their base key. */
const baseKey = (key: string) => key.replace(PLURAL, "");
const shipped = (catalogue: Map<string, string>) => new Set([...catalogue.keys()].map(baseKey));

/** Keys Refine's own components and hooks ask for (core and @refinedev/mantine), not named in our code. */
const REFINE_KEYS = [
  "notifications.success",
  "notifications.error",
  "notifications.createSuccess",
  "notifications.createError",
  "notifications.editSuccess",
  "notifications.editError",
  "notifications.deleteSuccess",
  "notifications.deleteError",
  "pages.error.404",
  "pages.error.backHome",
  "warnWhenUnsavedChanges",
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "test" ? [] : sourceFiles(file);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

/**
 * Every key the web app's code names: t("…"), <Trans i18nKey="…">, and the keys kept in tables for
 * a later t(…) (a string literal "namespace.word" whose namespace is one of the catalogue's, as a value).
 */
function keysUsedInCode(): Map<string, string> {
  const namespaces = Object.keys(en).join("|");
  const patterns = [
    /\bt\(\s*"([^"]+)"/g,
    /i18nKey="([^"]+)"/g,
    // A value, not an object's key: "delivery.viewed": … names a webhook event.
    new RegExp(`"((?:${namespaces})\\.[A-Za-z0-9_.]+)"(?!:)`, "g"),
  ];
  const used = new Map<string, string>();
  for (const file of sourceFiles(srcDir)) {
    const code = readFileSync(file, "utf8");
    for (const pattern of patterns)
      for (const match of code.matchAll(pattern)) used.set(match[1], path.relative(root, file));
  }
  return used;
}

const placeholders = (text: string) => new Set(text.match(/\{\{\w+\}\}|<\/?\w+>/g) ?? []);

describe("the web app's catalogues", () => {
  it("ship the same keys in English and German", () => {
    const english = [...CATALOGUES.en.keys()].sort();
    const german = [...CATALOGUES.de.keys()].sort();
    expect(german.filter((key) => !CATALOGUES.en.has(key))).toEqual([]);
    expect(english.filter((key) => !CATALOGUES.de.has(key))).toEqual([]);
  });

  it("have every key the code uses, in every language", () => {
    const used = keysUsedInCode();
    expect(used.size).toBeGreaterThan(300);
    for (const [language, catalogue] of Object.entries(CATALOGUES)) {
      const keys = shipped(catalogue);
      const missing = [...used].filter(([key]) => !keys.has(key)).map(([key, file]) => `${key} (${file})`);
      expect(missing, `missing in ${language}.json`).toEqual([]);
    }
  });

  it("carry no key that nothing uses, besides Refine's own", () => {
    const used = new Set([...keysUsedInCode().keys(), ...REFINE_KEYS]);
    expect([...shipped(CATALOGUES.en)].filter((key) => !used.has(key))).toEqual([]);
  });

  it("give every text in German, with no placeholder or tag English does not have", () => {
    for (const [key, german] of CATALOGUES.de) {
      const english = CATALOGUES.en.get(key) ?? "";
      expect(german.trim(), key).not.toBe("");
      const extra = [...placeholders(german)].filter((p) => !placeholders(english).has(p));
      expect(extra, key).toEqual([]);
    }
  });

  it("translate every sentence: German differs from English but for names and codes", () => {
    const sameOnPurpose =
      /^(Photodrop|Name:?|Status|Logo|Studio|Token|URL|ID|Admin|Bucket|Downloads|Webhooks|https:\/\/|\{\{\w+\}\} ms)$/;
    const untranslated = [...CATALOGUES.de].filter(
      ([key, german]) => german === CATALOGUES.en.get(key) && !sameOnPurpose.test(german),
    );
    expect(untranslated).toEqual([]);
  });
});

describe("the literal-string check", () => {
  const eslint = new ESLint({ cwd: root });
  const rulesBroken = async (code: string) => {
    const [result] = await eslint.lintText(code, { filePath: path.join(srcDir, "features/clients/check.tsx") });
    return result.messages.map((message) => message.ruleId ?? message.message);
  };

  it("fails on text or a visible attribute written in the code", async () => {
    expect(await rulesBroken("export function Greeting() {\n  return <p>Hello there</p>;\n}\n")).toContain(
      "i18next/no-literal-string",
    );
    expect(await rulesBroken('export const Search = () => <input aria-label="Search clients" />;\n')).toContain(
      "i18next/no-literal-string",
    );
  });

  it("lets text from the catalogue pass, and attributes no one reads", async () => {
    const code =
      'import { t } from "../../i18n";\nexport const Named = () => <p className="wide" title={t("clients.name")}>{t("clients.name")}</p>;\n';
    expect(await rulesBroken(code)).not.toContain("i18next/no-literal-string");
  });
});
