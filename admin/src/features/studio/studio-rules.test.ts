// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { setLanguage } from "../../i18n";
import {
  accentError,
  studioNameError,
  timeZoneError,
  toFormValues,
  toStudioPayload,
  websiteError,
} from "./studio-rules";
import type { StudioSettings } from "../../../../api/types";

describe("the Studio screen's rules", () => {
  it("needs a name of at most 100 characters without control characters", () => {
    expect(studioNameError("  ")).toBe("Name is required");
    expect(studioNameError("x".repeat(101))).toBe("Name must be at most 100 characters");
    for (const bad of ["Lumen\tStudio", "Lumen\nStudio", "Lumen\u202EStudio", "Lumen\u2066Studio"])
      expect(studioNameError(bad), JSON.stringify(bad)).toBe("Name must be on one line, without control characters");
    expect(studioNameError(" Lumen Studio ")).toBeNull();
  });

  it("takes only #rrggbb accents", () => {
    for (const bad of ["", "red", "#fff", "#12345g", "1971c2", "#1971c2ff"])
      expect(accentError(bad), bad).toBe("Accent colour must be #rrggbb");
    expect(accentError("#1971C2")).toBeNull();
  });

  it("takes a blank web site, or an http(s) address", () => {
    expect(websiteError("")).toBeNull();
    expect(websiteError("https://lumen.test")).toBeNull();
    expect(websiteError("lumen.test")).toBeNull();
    expect(websiteError("lumen")).toBe("Web site must be an http:// or https:// address");
    expect(websiteError("javascript:alert(1)")).toBe("Web site must be an http:// or https:// address");
    expect(websiteError("https://lumen.test/\u202Efdp.exe")).toBe(
      "Web site must be on one line, without control characters",
    );
    expect(websiteError(`https://lumen.test/${"a".repeat(200)}`)).toBe("Web site must be at most 200 characters");
  });

  it("completes a bare host as an https:// address", () => {
    const values = {
      ...{ name: "N", accentColor: "#000000", contactEmail: "", contactPhone: "", timeZone: "UTC" },
      ...{ language: "en" as const, followBrowserLanguage: false, requireTwoFactor: false },
    };
    expect(toStudioPayload({ ...values, contactWebsite: " nordlicht.example " }).contactWebsite).toBe(
      "https://nordlicht.example",
    );
    expect(toStudioPayload({ ...values, contactWebsite: "http://a.test" }).contactWebsite).toBe("http://a.test");
  });

  it("sends trimmed values, the accent in lower case and blank contact fields as null", () => {
    expect(
      toStudioPayload({
        name: " Lumen ",
        accentColor: "#FFD43B",
        contactEmail: " hello@lumen.test ",
        contactPhone: "  ",
        contactWebsite: "",
        timeZone: "Europe/Berlin",
        language: "de",
        followBrowserLanguage: true,
        requireTwoFactor: true,
      }),
    ).toEqual({
      name: "Lumen",
      accentColor: "#ffd43b",
      contactEmail: "hello@lumen.test",
      contactPhone: null,
      contactWebsite: null,
      timeZone: "Europe/Berlin",
      language: "de",
      followBrowserLanguage: true,
      requireTwoFactor: true,
    });
  });

  it("fills the form with blanks for what is not set", () => {
    // Asserted, so that what a record carries beside its fields (its version, its last editor) may grow.
    const settings = {
      name: "Lumen",
      logoUrl: null,
      accentColor: "#1971c2",
      contactEmail: null,
      contactPhone: "+44 20",
      contactWebsite: null,
      timeZone: "Europe/Lisbon",
      updatedAt: null,
      version: 1,
      updatedBy: null,
    } as StudioSettings;
    expect(toFormValues(settings)).toEqual({
      name: "Lumen",
      accentColor: "#1971c2",
      contactEmail: "",
      contactPhone: "+44 20",
      contactWebsite: "",
      timeZone: "Europe/Lisbon",
      language: "en",
      followBrowserLanguage: false,
      requireTwoFactor: false,
    });
  });

  it("takes only the IANA time zones", () => {
    expect(timeZoneError("Europe/Berlin")).toBeNull();
    expect(timeZoneError("UTC")).toBeNull();
    expect(timeZoneError("Berlin")).toBe("Time zone must be one of the IANA time zones, such as Europe/Berlin");
  });

  describe("in German", () => {
    afterEach(() => setLanguage("en"));

    it("says the server's rules in the web app's language", async () => {
      await setLanguage("de");
      expect(studioNameError("  ")).toBe("Bitte geben Sie einen Namen ein");
      expect(studioNameError("x".repeat(101))).toBe("Name: höchstens 100 Zeichen");
      expect(studioNameError("Lumen\tStudio")).toBe("Name: bitte in einer Zeile, ohne Steuerzeichen");
      expect(accentError("red")).toBe("Akzentfarbe bitte als #rrggbb angeben");
      expect(websiteError("lumen")).toBe("Die Website muss eine http://- oder https://-Adresse sein");
      expect(websiteError("https://lumen.test/\u202Efdp.exe")).toBe(
        "Website: bitte in einer Zeile, ohne Steuerzeichen",
      );
      expect(websiteError(`https://lumen.test/${"a".repeat(200)}`)).toBe("Website: höchstens 200 Zeichen");
      expect(timeZoneError("Berlin")).toBe("Bitte eine IANA-Zeitzone wählen, etwa Europe/Berlin");
    });
  });
});
