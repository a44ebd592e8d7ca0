/** Number, size and storage formatting shared by the dashboard, tables and upload rows. */

import { currentLanguage, type Language } from "../i18n";

const BYTES_PER_GB = 1024 ** 3;
const SIZE_UNITS = ["B", "KB", "MB", "GB", "TB"];

const LOCALES: Record<Language, string> = { en: "en-US", de: "de-DE" };
const numberFormats = new Map<string, Intl.NumberFormat>();

/**
 * A number with exactly `decimals` decimals in the web app's language (3.2 in English, 3,2 in
 * German), without grouping, as toFixed gave it: "1023 B", not "1,023 B".
 */
function decimal(value: number, decimals: number): string {
  const locale = LOCALES[currentLanguage()];
  const key = `${locale} ${decimals}`;
  let format = numberFormats.get(key);
  if (!format) {
    const digits = { minimumFractionDigits: decimals, maximumFractionDigits: decimals };
    format = new Intl.NumberFormat(locale, { ...digits, useGrouping: false });
    numberFormats.set(key, format);
  }
  return format.format(value);
}

/**
 * api/format-size's sizes (1024-based, one decimal: 512 B, 1.5 KB, 3.2 MB) with the web app's
 * decimal mark; that one stays English for the server's texts.
 */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1024) return `${decimal(Math.max(0, Math.round(bytes || 0)), 0)} B`;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${decimal(value, 1)} ${SIZE_UNITS[unit]}`;
}

/** Dashboard counters: 1.2K from 1,000, 3.4M from 1,000,000, plain below. */
export function formatCount(value: number): string {
  if (value >= 1_000_000) return `${decimal(value / 1_000_000, 1)}M`;
  if (value >= 1_000) return `${decimal(value / 1_000, 1)}K`;
  return String(value);
}

/** Storage given in GB; from 1000 GB it reads as TB (the same 1000 as the threshold, so 1000 GB is 1.0 TB). */
export function formatStorage(gigabytes: number): string {
  if (gigabytes >= 1000) return `${decimal(gigabytes / 1000, 1)} TB`;
  return `${decimal(gigabytes, 1)} GB`;
}

export type StorageColor = "red" | "orange" | "blue";

/** The progress colour of a disk: red above 90 %, orange above 75 %, blue otherwise. */
export function storageColor(percentUsed: number): StorageColor {
  if (percentUsed > 90) return "red";
  if (percentUsed > 75) return "orange";
  return "blue";
}

export function bytesToGigabytes(bytes: number): number {
  return bytes / BYTES_PER_GB;
}

/** Whole-number average, 0 when there is nothing to divide by. */
export function roundedAverage(total: number, count: number): number {
  return count > 0 ? Math.round(total / count) : 0;
}

/** Upload rows show megabytes with two decimals. */
export function formatMegabytes(bytes: number): string {
  return `${decimal(bytes / 1024 ** 2, 2)} MB`;
}

const DATE_OPTIONS: Intl.DateTimeFormatOptions = { year: "numeric", month: "short", day: "numeric" };
const DATE_TIME_OPTIONS: Intl.DateTimeFormatOptions = { ...DATE_OPTIONS, hour: "2-digit", minute: "2-digit" };
const formats = new Map<string, Intl.DateTimeFormat>();

/** A formatter for the web app's current language, made once per language and kind. */
function dateFormat(kind: "date" | "dateTime"): Intl.DateTimeFormat {
  const locale = LOCALES[currentLanguage()];
  const key = `${locale} ${kind}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, kind === "date" ? DATE_OPTIONS : DATE_TIME_OPTIONS);
    formats.set(key, format);
  }
  return format;
}

/** An ISO date as "Nov 23, 2026"; an empty string for a missing or unreadable one. */
export function formatDate(iso: string | null | undefined): string {
  const date = iso ? new Date(iso) : null;
  return date && !Number.isNaN(date.getTime()) ? dateFormat("date").format(date) : "";
}

/** An ISO date with its time of day, for created/updated stamps. */
export function formatDateTime(iso: string | null | undefined): string {
  const date = iso ? new Date(iso) : null;
  return date && !Number.isNaN(date.getTime()) ? dateFormat("dateTime").format(date) : "";
}
