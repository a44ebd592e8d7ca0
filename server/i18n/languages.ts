import { LANGUAGE_NAMES, SUPPORTED_LANGUAGES, type ClientLanguage } from "../../api/client-languages";

export { LANGUAGE_NAMES, SUPPORTED_LANGUAGES };
export type Language = ClientLanguage;

export const DEFAULT_LANGUAGE: Language = "en";

const RTL: ReadonlySet<Language> = new Set<Language>(["ar"]);

export const directionOf = (lang: Language): "rtl" | "ltr" => (RTL.has(lang) ? "rtl" : "ltr");

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (SUPPORTED_LANGUAGES as readonly string[]).includes(value);
}

/**
 * A supported language for a tag as browsers and people write it (`de-AT`, `pt-br`, `no`,
 * `nn`): the exact one, else its base language; undefined for anything else.
 */
export function matchLanguage(tag: string): Language | undefined {
  const lower = tag.trim().toLowerCase();
  if (!lower) return undefined;
  const exact = SUPPORTED_LANGUAGES.find((l) => l.toLowerCase() === lower);
  if (exact) return exact;
  const base = lower.split(/[-_]/)[0];
  // Norwegian: Bokmål is what "no" and Nynorsk readers read best of ours; any Portuguese, Brazil's.
  if (base === "no" || base === "nn") return "nb";
  if (base === "pt") return "pt-BR";
  return SUPPORTED_LANGUAGES.find((l) => l === base);
}

/** The first supported language of an Accept-Language header, by its q-values; undefined when none. */
export function fromAcceptLanguage(header: string | undefined): Language | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(",")
    .slice(0, 20)
    .map((part, i) => {
      const [tag, ...params] = part.split(";");
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag ?? "", q: q === undefined ? 1 : Number(q), i };
    })
    .filter((r) => r.q > 0 && Number.isFinite(r.q))
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const { tag } of ranked) {
    const lang = matchLanguage(tag);
    if (lang) return lang;
  }
  return undefined;
}
