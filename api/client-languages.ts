/**
 * The languages of a client's side of Photodrop (the gallery, its mails, the unsubscribe page):
 * the studio's and each project's choice, and the gallery's language menu.
 */
export const SUPPORTED_LANGUAGES = [
  "en",
  "de",
  "fr",
  "es",
  "it",
  "nl",
  "pt-BR",
  "pl",
  "sv",
  "nb",
  "da",
  "ja",
  "ar",
] as const;

export type ClientLanguage = (typeof SUPPORTED_LANGUAGES)[number];

/** Each language's own name, as a menu shows it (never translated). */
export const LANGUAGE_NAMES: Record<ClientLanguage, string> = {
  en: "English",
  de: "Deutsch",
  fr: "Français",
  es: "Español",
  it: "Italiano",
  nl: "Nederlands",
  "pt-BR": "Português (Brasil)",
  pl: "Polski",
  sv: "Svenska",
  nb: "Norsk bokmål",
  da: "Dansk",
  ja: "日本語",
  ar: "العربية",
};
