import { describe, expect, it } from "vitest";
import { keysOf, readCatalogue, type Catalogue } from "./catalogues";
import { SUPPORTED_LANGUAGES } from "./languages";

const PLURAL = /_(zero|one|two|few|many|other)$/;
const english = readCatalogue("en")!;
const englishKeys = keysOf(english);
/** The plural keys' stems (`gallery.photoCount`), and the plain keys. */
const pluralStems = [...new Set(englishKeys.filter((k) => PLURAL.test(k)).map((k) => k.replace(PLURAL, "")))];
const plainKeys = englishKeys.filter((k) => !PLURAL.test(k));

const textAt = (catalogue: Catalogue, key: string): string | undefined => {
  let at: string | Catalogue | undefined = catalogue;
  for (const part of key.split(".")) at = typeof at === "object" ? at[part] : undefined;
  return typeof at === "string" ? at : undefined;
};
const placeholders = (text: string) => new Set([...text.matchAll(/\{\{\s*(\w+)[^}]*\}\}/g)].map((m) => m[1]));

describe("the English catalogue", () => {
  it("has every text once, its plurals as _one/_other, and no HTML", () => {
    expect(englishKeys.length).toBeGreaterThan(90);
    for (const stem of pluralStems)
      expect(englishKeys.filter((k) => k.startsWith(`${stem}_`)).sort()).toEqual([`${stem}_one`, `${stem}_other`]);
    for (const key of englishKeys) expect(textAt(english, key), key).not.toMatch(/<[a-z/!]/i);
  });
});

describe.each(SUPPORTED_LANGUAGES.filter((l) => l !== "en"))("the %s catalogue", (lang) => {
  const catalogue = readCatalogue(lang);
  const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;

  it("exists (server/i18n/locales)", () => {
    expect(catalogue, `server/i18n/locales/${lang}.json is missing`).toBeDefined();
  });

  it("has every key of English, nothing else, and each plural in exactly the forms the language has", () => {
    const keys = keysOf(catalogue ?? {});
    const missing = plainKeys.filter((k) => textAt(catalogue ?? {}, k) === undefined);
    expect(missing, `missing in ${lang}.json`).toEqual([]);
    for (const stem of pluralStems) {
      const forms = keys.filter((k) => k.replace(PLURAL, "") === stem && PLURAL.test(k)).map((k) => PLURAL.exec(k)![1]);
      expect(forms.sort(), `${lang}: ${stem}`).toEqual([...categories].sort());
    }
    const known = new Set([...plainKeys, ...pluralStems.flatMap((s) => categories.map((c) => `${s}_${c}`))]);
    expect(
      keys.filter((k) => !known.has(k)),
      `unknown keys in ${lang}.json`,
    ).toEqual([]);
  });

  it("keeps every placeholder, adds none, and holds no HTML and no empty text", () => {
    for (const key of keysOf(catalogue ?? {})) {
      const text = textAt(catalogue!, key)!;
      const source = textAt(english, key) ?? textAt(english, `${key.replace(PLURAL, "")}_other`) ?? "";
      const own = placeholders(text);
      const wanted = placeholders(source);
      expect(text.trim(), `${lang}: ${key}`).not.toBe("");
      expect(text, `${lang}: ${key}`).not.toMatch(/<[a-z/!]/i);
      expect(
        [...own].filter((p) => !wanted.has(p)),
        `${lang}: ${key} adds`,
      ).toEqual([]);
      // A plural's form for one item may say "one" in words; every other placeholder is kept.
      expect(
        [...wanted].filter((p) => !own.has(p) && p !== "count"),
        `${lang}: ${key} drops`,
      ).toEqual([]);
    }
  });
});
