import { toIso, type Db } from "../db/database";
import { lockedForUpdate } from "../db/transactions";

/** The stored row's values; null where the studio kept the default. */
export interface StudioRow {
  name: string | null;
  logoKey: string | null;
  accentColor: string | null;
  contactEmail: string | null;
  contactPhone: string | null;
  contactWebsite: string | null;
  updatedAt: string | null;
}

const COLUMNS: Record<keyof StudioRow, string> = {
  name: "name",
  logoKey: "logo_key",
  accentColor: "accent_color",
  contactEmail: "contact_email",
  contactPhone: "contact_phone",
  contactWebsite: "contact_website",
  updatedAt: "updated_at",
};

const ROW_ID = 1;

export async function readStudioRow(db: Db): Promise<StudioRow> {
  const row = (await db("studio_settings").where({ id: ROW_ID }).first()) as Record<string, unknown> | undefined;
  const value = (key: keyof StudioRow) => (row?.[COLUMNS[key]] as string | null | undefined) ?? null;
  return {
    name: value("name"),
    logoKey: value("logoKey"),
    accentColor: value("accentColor"),
    contactEmail: value("contactEmail"),
    contactPhone: value("contactPhone"),
    contactWebsite: value("contactWebsite"),
    updatedAt: toIso(row?.updated_at),
  };
}

/** Writes the values given (creating the row the first time); answers the logo key it replaced. */
export async function writeStudioRow(
  db: Db,
  values: Partial<Omit<StudioRow, "updatedAt">>,
  now: string,
): Promise<{ previousLogoKey: string | null }> {
  return db.transaction(async (trx) => {
    const before = await lockedForUpdate(trx, trx("studio_settings").where({ id: ROW_ID })).first("logo_key");
    const row: Record<string, unknown> = { updated_at: now };
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
