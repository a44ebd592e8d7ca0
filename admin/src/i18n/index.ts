/**
 * The web app's words: one i18next instance with the English catalogue built in and German loaded
 * when first chosen. `t` is the translate function Refine's i18nProvider is, so our screens and
 * Refine's own components (notifications, the 404 page, the unsaved-changes warning) read the same
 * catalogue. Screens call `t` while rendering; App remounts its routes when the language changes.
 */
import i18next, { type TOptions } from "i18next";
import { initReactI18next } from "react-i18next";
import type { I18nProvider } from "@refinedev/core";
import type { WebAppLanguage } from "../../../api/types";
import en from "./locales/en.json";

export type Language = WebAppLanguage;

export const LANGUAGES: readonly Language[] = ["en", "de"];

/** Each language by its own name, as the language menu lists it. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: "English", de: "Deutsch" };

type Catalogue = typeof en;

const CATALOGUES: Record<Language, () => Promise<Catalogue>> = {
  en: async () => en,
  de: () => import("./locales/de.json").then((module) => module.default),
};

export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  lng: "en",
  fallbackLng: "en",
  resources: { en: { translation: en } },
  // React escapes what it renders; escaping here too would show &amp; on screen.
  interpolation: { escapeValue: false },
  initAsync: false,
});

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

/** German when the browser's first language is German, else English: the sign-in page's language. */
export function browserLanguage(): Language {
  const first = (navigator.languages?.[0] ?? navigator.language ?? "").toLowerCase();
  return first === "de" || first.startsWith("de-") ? "de" : "en";
}

export function currentLanguage(): Language {
  return isLanguage(i18n.language) ? i18n.language : "en";
}

/** Loads the language's catalogue (once) and switches to it; `<html lang>` follows. */
export async function setLanguage(language: Language): Promise<void> {
  if (!i18n.hasResourceBundle(language, "translation")) {
    i18n.addResourceBundle(language, "translation", await CATALOGUES[language]());
  }
  if (i18n.language !== language) await i18n.changeLanguage(language);
  document.documentElement.lang = language;
}

/** The text for `key` in the current language, with `{{name}}` filled from `options`. */
export function t(key: string, options?: TOptions): string {
  return i18n.t(key, options ?? {}) as string;
}

/**
 * Refine's translate: a key in our catalogue is ours; a key we do not ship keeps Refine's own
 * English default (Refine passes it as the second or third argument).
 */
export const i18nProvider: I18nProvider = {
  translate: (key: string, options?: unknown, defaultMessage?: string) => {
    const fallback = typeof options === "string" ? options : defaultMessage;
    const values = typeof options === "object" && options !== null ? (options as TOptions) : undefined;
    return i18n.exists(key) ? t(key, values) : (fallback ?? key);
  },
  changeLocale: (language: string) => (isLanguage(language) ? setLanguage(language) : Promise.resolve()),
  getLocale: () => currentLanguage(),
};
