// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { formatDate } from "../lib/format";
import { browserLanguage, currentLanguage, i18nProvider, setLanguage, t } from "./index";

afterEach(() => setLanguage("en"));

describe("the web app's languages", () => {
  it("speaks English until German is chosen, then German, with its plurals and <html lang>", async () => {
    expect(t("projects.photoCount", { count: 1 })).toBe("1 photo");
    await setLanguage("de");
    expect(currentLanguage()).toBe("de");
    expect(document.documentElement.lang).toBe("de");
    expect(t("projects.photoCount", { count: 1 })).toBe("1 Foto");
    expect(t("projects.photoCount", { count: 3 })).toBe("3 Fotos");
    expect(t("delivery.studioDefaultNamed", { name: "Deutsch" })).toBe("Wie im Studio (Deutsch)");
    expect(formatDate("2026-12-24T12:00:00Z")).toBe("24. Dez. 2026");
    await setLanguage("en");
    expect(formatDate("2026-12-24T12:00:00Z")).toBe("Dec 24, 2026");
  });

  it("answers Refine from the catalogue, and keeps Refine's own English for a key it does not ship", async () => {
    await setLanguage("de");
    expect(i18nProvider.translate("pages.error.404", undefined, "Sorry, the page you visited does not exist.")).toBe(
      "Diese Seite gibt es leider nicht.",
    );
    expect(i18nProvider.translate("notifications.error", { statusCode: 500 }, "Error (status code: 500)")).toBe(
      "Fehler (Statuscode 500)",
    );
    expect(i18nProvider.translate("buttons.export", "Export")).toBe("Export");
    expect(i18nProvider.getLocale()).toBe("de");
    await i18nProvider.changeLocale("en");
    expect(currentLanguage()).toBe("en");
  });

  it("follows the browser before sign-in: German for any German, else English", () => {
    const languages = (list: string[]) =>
      Object.defineProperty(navigator, "languages", { value: list, configurable: true });
    languages(["de-AT", "en"]);
    expect(browserLanguage()).toBe("de");
    languages(["de"]);
    expect(browserLanguage()).toBe("de");
    languages(["fr-FR", "de"]);
    expect(browserLanguage()).toBe("en");
    languages(["en-GB"]);
    expect(browserLanguage()).toBe("en");
  });
});
