import { describe, expect, it } from "vitest";
import { translator } from "../i18n/i18n";
import { LANGUAGE_NAMES, SUPPORTED_LANGUAGES } from "../i18n/languages";
import { decoded } from "../i18n/test-helpers";
import { languageMenu } from "./page-language";

/** The menu's label as a person reads it: its summary's text, tags dropped. */
const labelOf = (lang: (typeof SUPPORTED_LANGUAGES)[number]) => {
  const html = languageMenu({ tr: translator(lang), here: "/d/abc" });
  const summary = /<summary>(.*)<\/summary>/.exec(html)![1];
  return { summary, text: decoded(summary.replace(/<[^>]+>/g, "")) };
};

describe("the language menu's label", () => {
  it("is written with each language's own colon and spacing", () => {
    expect(labelOf("en").text).toBe("Language: English");
    expect(labelOf("de").text).toBe("Sprache: Deutsch");
    // French typography: a no-break space before the colon.
    expect(labelOf("fr").text).toBe("Langue\u00a0: Français");
    // Japanese: the full-width colon, no space.
    expect(labelOf("ja").text).toBe("言語：日本語");
  });

  it.each(SUPPORTED_LANGUAGES)("in %s is its catalogue's text, the language's name marked in it", (lang) => {
    const { summary, text } = labelOf(lang);
    const name = LANGUAGE_NAMES[lang];
    expect(text).toBe(translator(lang).t("page.languageMenu", { language: name }));
    expect(summary).toContain(`<span lang="${lang}">${name}</span>`);
    // A space before the colon is French's alone, and never one a line may break at.
    if (lang === "fr") expect(text).toMatch(/\u00a0:/);
    else expect(text).not.toMatch(/\s[:：]/);
  });
});
