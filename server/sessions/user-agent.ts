import Bowser from "bowser";

/**
 * The browser and system a user agent names, as a person reads them ("Firefox 128", "macOS 14.5").
 * bowser: small, MIT, maintained, with its own types (ua-parser-js 2 is AGPL).
 */
export function describeUserAgent(userAgent: string | null): { browser: string | null; system: string | null } {
  if (!userAgent) return { browser: null, system: null };
  const parsed = Bowser.parse(userAgent);
  const named = (name?: string, version?: string) => (name ? [name, version].filter(Boolean).join(" ") : null);
  const major = parsed.browser.version?.split(".")[0];
  return {
    browser: named(parsed.browser.name, major),
    system: named(parsed.os.name, parsed.os.versionName ?? parsed.os.version),
  };
}
