import type { Versioned } from "../../api/types";
import { toIso, type Db } from "../db/database";
import { editorNameColumn, editorOf } from "../db/edited-by";
import { lockedForUpdate, serializable } from "../db/transactions";
import { StaleRecordError, versionMatches, type Edit } from "../http/record-version";

/** The stored row's values; null where the studio kept the default. */
export interface StudioRow {
  name: string | null;
  logoKey: string | null;
  accentColor: string | null;
  contactEmail: string | null;
  contactPhone: string | null;
  contactWebsite: string | null;
  timeZone: string | null;
  /** The clients' language (server/i18n/languages.ts); null: English. */
  language: string | null;
  /** Galleries follow the visitor's browser language. */
  followBrowserLanguage: boolean;
  /** Everyone must turn on two-factor sign-in (server/two-factor/require-two-factor.ts). */
  requireTwoFactor: boolean;
  updatedAt: string | null;
}

const COLUMNS: Record<keyof StudioRow, string> = {
  name: "name",
  logoKey: "logo_key",
  accentColor: "accent_color",
  contactEmail: "contact_email",
  contactPhone: "contact_phone",
  contactWebsite: "contact_website",
  timeZone: "time_zone",
  language: "language",
  followBrowserLanguage: "follow_browser_language",
  requireTwoFactor: "require_two_factor",
  updatedAt: "updated_at",
};

const ROW_ID = 1;

/** The row, with its version (1 until the first edit, also before the row exists) and last editor. */
export async function readStudioRow(db: Db): Promise<StudioRow & Versioned> {
  const row = (await db("studio_settings")
    .where({ id: ROW_ID })
    .first(db.raw(`studio_settings.*, ${editorNameColumn("studio_settings.updated_by")}`))) as
    Record<string, unknown> | undefined;
  const value = (key: Exclude<keyof StudioRow, "followBrowserLanguage" | "requireTwoFactor">) =>
    (row?.[COLUMNS[key]] as string | null | undefined) ?? null;
  return {
    name: value("name"),
    logoKey: value("logoKey"),
    accentColor: value("accentColor"),
    contactEmail: value("contactEmail"),
    contactPhone: value("contactPhone"),
    contactWebsite: value("contactWebsite"),
    timeZone: value("timeZone"),
    language: value("language"),
    // sqlite answers 0/1.
    followBrowserLanguage: Boolean(row?.follow_browser_language),
    requireTwoFactor: Boolean(row?.require_two_factor),
    updatedAt: toIso(row?.updated_at),
    version: Number(row?.version ?? 1),
    updatedBy: editorOf(
      row?.updated_by as string | null | undefined,
      row?.updated_by_name as string | null | undefined,
    ),
  };
}

/**
 * Writes the values given (creating the row the first time); answers the logo key it replaced.
 * With an edit (the settings, not the logo) the version is checked against the edit's If-Match
 * (StaleRecordError) and counted up; serializable, so the first save, which finds no row to lock,
 * cannot race another.
 */
export async function writeStudioRow(
  db: Db,
  values: Partial<Omit<StudioRow, "updatedAt">>,
  now: string,
  edit?: Edit,
): Promise<{ previousLogoKey: string | null }> {
  return serializable(db, async (trx) => {
    const before = await lockedForUpdate(trx, trx("studio_settings").where({ id: ROW_ID })).first(
      "logo_key",
      "version",
    );
    const version = Number(before?.version ?? 1);
    if (edit && !versionMatches(edit.condition, version)) throw new StaleRecordError();
    const row: Record<string, unknown> = { updated_at: now };
    if (edit) Object.assign(row, { version: version + 1, updated_by: edit.by });
    for (const [key, value] of Object.entries(values)) {
      if (value !== undefined) row[COLUMNS[key as keyof StudioRow]] = value;
    }
    await trx("studio_settings")
      .insert({ id: ROW_ID, ...row })
      .onConflict("id")
      .merge(Object.keys(row));
    return { previousLogoKey: (before?.logo_key as string | null | undefined) ?? null };
  });
}
