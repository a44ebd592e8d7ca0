import { LANGUAGE_NAMES, SUPPORTED_LANGUAGES } from "../i18n/languages";
import type { Translator } from "../i18n/i18n";
import { resourcesOf } from "../i18n/i18n";
import { escapeHtml } from "./escape-html";

/** What a client's page is drawn in: its texts, and the address its language menu's links go to. */
export interface PageLanguage {
  tr: Translator;
  /** The page's own path (`/d/<token>`, `/unsubscribe/<token>`): the menu links to it with `?lang=`. */
  here?: string;
}

/**
 * The language menu: a disclosure of plain links (`?lang=de`), so it works without the script;
 * each language named in itself, in its own language and direction.
 */
export function languageMenu({ tr, here }: PageLanguage): string {
  if (!here) return "";
  const items = SUPPORTED_LANGUAGES.map((lang) => {
    const current = lang === tr.lang ? ` aria-current="true"` : "";
    return `<a href="${escapeHtml(`${here}?lang=${lang}`)}" hreflang="${lang}" lang="${lang}"${current}>${LANGUAGE_NAMES[lang]}</a>`;
  }).join("");
  return `<details class="languages"><summary>${menuLabel(tr)}</summary><nav>${items}</nav></details>`;
}

/** Stands for the language's name in the label, so the name can be marked up where the catalogue puts it. */
const NAME_HERE = "\u0000";

/**
 * "Language: Deutsch" as the language writes it (its catalogue holds the colon and its spacing:
 * `Langue : Français`, `言語：日本語`), the current language's name marked as written in it.
 */
function menuLabel(tr: Translator): string {
  const [before, after = ""] = tr.t("page.languageMenu", { language: NAME_HERE }).split(NAME_HERE);
  const name = `<span lang="${tr.lang}">${LANGUAGE_NAMES[tr.lang]}</span>`;
  return `${escapeHtml(before)}${name}${escapeHtml(after)}`;
}

/** Each language's script texts as made once (the catalogues never change while the process runs). */
const madeTexts = new Map<string, string>();

/**
 * The texts the gallery's scripts show (viewer, favourites), for them to read: JSON that never
 * runs, and never ends its element. A view-only gallery's leaves out the download buttons' words.
 */
export function scriptTexts(tr: Translator, downloads: boolean): string {
  const key = `${tr.lang} ${downloads}`;
  let made = madeTexts.get(key);
  if (made === undefined) madeTexts.set(key, (made = makeScriptTexts(tr, downloads)));
  return made;
}

function makeScriptTexts(tr: Translator, downloads: boolean): string {
  const all = withEnglishUnder(resourcesOf("en"), resourcesOf(tr.lang));
  if (!downloads) {
    const { download: _d, downloadWebSize: _w, ...viewer } = all.viewer as Texts;
    all.viewer = viewer;
  }
  const texts = {
    lang: tr.lang,
    dir: tr.dir,
    viewer: all.viewer,
    favourites: all.favourites,
    theStudio: tr.t("page.theStudio"),
  };
  const json = JSON.stringify(texts).replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026");
  return `<script type="application/json" id="pd-texts">${json}</script>`;
}

type Texts = Record<string, unknown>;

const PLURAL_FORM = /_(zero|one|two|few|many|other)$/;

/**
 * The language's texts, with English for any it lacks (as i18next falls back on the server);
 * a plural the language has keeps only its own forms (Japanese has no `_one`).
 */
function withEnglishUnder(english: Texts, own: Texts): Texts {
  const ownPlurals = new Set(
    Object.keys(own)
      .filter((key) => PLURAL_FORM.test(key))
      .map((key) => key.replace(PLURAL_FORM, "")),
  );
  const merged: Texts = Object.fromEntries(
    Object.entries(english).filter(([key]) => !(PLURAL_FORM.test(key) && ownPlurals.has(key.replace(PLURAL_FORM, "")))),
  );
  for (const [key, value] of Object.entries(own)) {
    const under = merged[key];
    merged[key] =
      value && typeof value === "object" && under && typeof under === "object"
        ? withEnglishUnder(under as Texts, value as Texts)
        : value;
  }
  return merged;
}
