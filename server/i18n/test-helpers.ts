/** What the language tests share: the English catalogue's sentences, and pages read as a person reads them. */
import { keysOf, readCatalogue, type Catalogue } from "./catalogues";
import type { Language } from "./languages";

const english = readCatalogue("en")!;

const textAt = (catalogue: Catalogue, key: string) =>
  key.split(".").reduce<string | Catalogue>((at, part) => (typeof at === "object" ? at[part] : at), catalogue);

/**
 * Every run of two words or more of the English catalogue, between its placeholders and line
 * breaks (`Your photos of`, `are ready. You can view them…`): what must not show in another
 * language. Single words (`Passcode`, `Download`) are left out: some languages share them.
 */
export const ENGLISH_SENTENCES: string[] = [
  ...new Set(
    keysOf(english)
      .flatMap((key) => String(textAt(english, key)).split(/\{\{\w+\}\}|\n/))
      .map((part) => part.trim())
      .filter((part) => /\p{L}+[\s'’]+\p{L}+/u.test(part)),
  ),
];

/** Sentences a language rightly shares with English (none so far: keep each entry short and explained). */
const SHARED_WITH_ENGLISH: Partial<Record<Language, string[]>> = {};

/** A page's text as a browser shows it: entities decoded (the tags stay; no English hides in them). */
export const decoded = (html: string) =>
  html
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .replace(/\\u003c/g, "<")
    .replace(/\\u003e/g, ">")
    .replace(/\\u0026/g, "&");

/** The English sentences found in `text`, less those the language shares with English. */
export function englishIn(lang: Language, text: string): string[] {
  const shared = new Set(SHARED_WITH_ENGLISH[lang] ?? []);
  const plain = decoded(text);
  return ENGLISH_SENTENCES.filter((sentence) => !shared.has(sentence) && plain.includes(sentence));
}
