import i18next, { type i18n, type TOptions } from "i18next";
import { readCatalogues } from "./catalogues";
import { formatCount } from "./format";
import { DEFAULT_LANGUAGE, directionOf, isLanguage, SUPPORTED_LANGUAGES, type Language } from "./languages";

/** A text of the catalogue, in one language, with its placeholders filled in (never HTML-escaped: callers escape). */
export type Translate = (key: string, options?: TOptions) => string;

export interface Translator {
  lang: Language;
  dir: "rtl" | "ltr";
  t: Translate;
}

let instance: i18n | undefined;

/**
 * One i18next for the process, every catalogue in locales/ loaded at once (synchronously). A
 * language whose file is missing shows English (the catalogue test fails on it meanwhile).
 */
function i18nextInstance(): i18n {
  if (instance) return instance;
  const catalogues = readCatalogues();
  const made = i18next.createInstance();
  void made.init({
    initAsync: false,
    resources: Object.fromEntries(
      Object.entries(catalogues).map(([lang, catalogue]) => [lang, { translation: catalogue }]),
    ),
    lng: DEFAULT_LANGUAGE,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...SUPPORTED_LANGUAGES],
    // pt-BR is a language of its own here, not pt with a region.
    load: "currentOnly",
    nonExplicitSupportedLngs: false,
    interpolation: { escapeValue: false },
    returnNull: false,
    showSupportNotice: false,
  } as Parameters<i18n["init"]>[0]);
  instance = made;
  return made;
}

const translators = new Map<Language, Translator>();

/** The texts of one language (English for anything not supported). */
export function translator(lang: string | null | undefined): Translator {
  const language = isLanguage(lang) ? lang : DEFAULT_LANGUAGE;
  let kept = translators.get(language);
  if (!kept) {
    const fixed = i18nextInstance().getFixedT(language);
    // A count picks the plural form as a number and is shown as the language writes numbers (`1.234`).
    const t: Translate = (key, options = {}) =>
      String(
        typeof options.count === "number"
          ? fixed(key, { ...options, replace: { ...options, count: formatCount(language, options.count) } })
          : fixed(key, options),
      );
    kept = { lang: language, dir: directionOf(language), t };
    translators.set(language, kept);
  }
  return kept;
}

/** The loaded texts of a language as one nested object (for the page scripts). */
export function resourcesOf(lang: Language): Record<string, unknown> {
  return (i18nextInstance().getResourceBundle(lang, "translation") as Record<string, unknown> | undefined) ?? {};
}
