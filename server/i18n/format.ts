import { formatFileSize } from "../../api/format-size";
import type { Language } from "./languages";

const SIZE_UNITS = ["byte", "kilobyte", "megabyte", "gigabyte", "terabyte"] as const;

/** Number formats made once (each costs tens of µs to make, and every gallery page uses a few). */
const numberFormats = new Map<string, Intl.NumberFormat>();
function numberFormat(lang: Language, unit?: (typeof SIZE_UNITS)[number]): Intl.NumberFormat {
  const key = `${lang} ${unit ?? ""}`;
  let made = numberFormats.get(key);
  if (!made) {
    const digits = unit === undefined || unit === "byte" ? undefined : 1;
    made = new Intl.NumberFormat(lang, {
      ...(unit && { style: "unit", unit, unitDisplay: "short" }),
      ...(digits && { minimumFractionDigits: digits, maximumFractionDigits: digits }),
    });
    numberFormats.set(key, made);
  }
  return made;
}

/**
 * A file size for the language: English keeps the web app's own `3.2 MB` (api/format-size.ts);
 * others use Intl's unit names and decimal separator (`3,2 Mo`, `3,2 MB`), 1024-based the same way.
 */
export function formatSizeIn(lang: Language, bytes: number): string {
  if (lang === "en") return formatFileSize(bytes);
  let value = Number.isFinite(bytes) ? Math.max(0, bytes) : 0;
  let unit = 0;
  while (value >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return numberFormat(lang, SIZE_UNITS[unit]).format(unit === 0 ? Math.round(value) : value);
}

/** A count for the language (`1.234`, `1 234`, `١٬٢٣٤`); English as before (`1234`). */
export function formatCount(lang: Language, n: number): string {
  return lang === "en" ? String(n) : numberFormat(lang).format(n);
}

const partsOf = (lang: string, iso: string, timeZone: string, withTime: boolean) => {
  const parts = new Intl.DateTimeFormat(lang, {
    timeZone,
    day: "numeric",
    month: "long",
    year: "numeric",
    ...(withTime && { weekday: "long", hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZoneName: "short" }),
  }).formatToParts(new Date(iso));
  return (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
};

/** `14 March 2099` (English, as ever); `14. März 2099`, `2099年3月14日` in other languages: the day in the zone given. */
export function formatDayIn(lang: Language, iso: string, timeZone = "UTC"): string {
  if (lang !== "en")
    return new Intl.DateTimeFormat(lang, { timeZone, day: "numeric", month: "long", year: "numeric" }).format(
      new Date(iso),
    );
  const part = partsOf("en-GB", iso, timeZone, false);
  return `${part("day")} ${part("month")} ${part("year")}`;
}

/** `Saturday 14 March 2099, 19:30 CET` (English, as ever), and Intl's own order elsewhere: clients are anywhere, so the zone is named. */
export function formatExpiryIn(lang: Language, iso: string, timeZone = "UTC"): string {
  if (lang !== "en")
    return new Intl.DateTimeFormat(lang, {
      timeZone,
      weekday: "long",
      day: "numeric",
      month: "long",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZoneName: "short",
    }).format(new Date(iso));
  const part = partsOf("en-GB", iso, timeZone, true);
  return `${part("weekday")} ${formatDayIn(lang, iso, timeZone)}, ${part("hour")}:${part("minute")} ${part("timeZoneName")}`;
}
