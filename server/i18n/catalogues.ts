import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { SUPPORTED_LANGUAGES, type Language } from "./languages";

export type Catalogue = { [key: string]: string | Catalogue };

const LOCALES_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "locales");

/** A language's file, or undefined while it is missing (its texts then fall back to English). */
export function readCatalogue(lang: Language): Catalogue | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(LOCALES_DIR, `${lang}.json`), "utf8")) as Catalogue;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

/** Every language's catalogue that exists, read once. */
export function readCatalogues(): Partial<Record<Language, Catalogue>> {
  const all: Partial<Record<Language, Catalogue>> = {};
  for (const lang of SUPPORTED_LANGUAGES) {
    const catalogue = readCatalogue(lang);
    if (catalogue) all[lang] = catalogue;
  }
  return all;
}

/** Every key of a catalogue, nested keys joined by dots (`gallery.photoCount_one`). */
export function keysOf(catalogue: Catalogue, prefix = ""): string[] {
  return Object.entries(catalogue).flatMap(([key, value]) =>
    typeof value === "string" ? [prefix + key] : keysOf(value, `${prefix}${key}.`),
  );
}
