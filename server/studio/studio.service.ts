import type { AppContext } from "../context";
import { nowIso } from "../db/database";
import type { EventBus } from "../events/bus";
import { isLogoKey, removeLogo, storeLogo } from "../storage/logo-files";
import { DEFAULT_ACCENT, textColourOn } from "../../api/studio";
import type { StudioSettings, Versioned } from "../../api/types";
import type { StudioChange } from "./studio.schema";
import type { Edit } from "../http/record-version";
import { DEFAULT_LANGUAGE, isLanguage } from "../i18n/languages";
import { readStudioRow, writeStudioRow, type StudioRow } from "./studio.repository";

/** The one record of the `studio` resource, as the web app addresses it (`/api/studio/settings`). */
export const STUDIO_RECORD = "settings";

/** The zone of the machine the server runs on: the studio's until an admin chooses one. */
const serverTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

/** Where the public logo route serves a stored logo key (`studio/<hex>.webp`). */
const logoUrlOf = (key: string | null) => (key ? `/d/logo/${key.slice("studio/".length)}` : null);

function toSettings(row: StudioRow & Versioned, defaultName: string): StudioSettings {
  return {
    name: row.name ?? defaultName,
    logoUrl: logoUrlOf(row.logoKey),
    accentColor: row.accentColor ?? DEFAULT_ACCENT,
    contactEmail: row.contactEmail,
    contactPhone: row.contactPhone,
    contactWebsite: row.contactWebsite,
    timeZone: row.timeZone ?? serverTimeZone(),
    language: isLanguage(row.language) ? row.language : DEFAULT_LANGUAGE,
    followBrowserLanguage: row.followBrowserLanguage,
    requireTwoFactor: row.requireTwoFactor,
    updatedAt: row.updatedAt,
    version: row.version,
    updatedBy: row.updatedBy,
  };
}

/** The branding as the delivery pages draw it: the settings and the text colour their accent needs. */
export interface Branding extends StudioSettings {
  onAccent: string;
}

/**
 * The branding, read once and kept until a change of the studio is announced (by this process or,
 * through the relay, another) or announcements may have been lost; every delivery page asks.
 */
class BrandingCache {
  private kept: Promise<Branding> | undefined;

  constructor(
    private readonly ctx: AppContext,
    events: EventBus,
  ) {
    events.onResourceChanged((change) => {
      if (change.resource === "studio") this.kept = undefined;
    });
    events.onAnnouncementsLost(() => (this.kept = undefined));
  }

  async get(): Promise<Branding> {
    if (!(await this.ctx.events.caughtUp())) return read(this.ctx);
    if (!this.kept) {
      const load = read(this.ctx);
      this.kept = load;
      load.catch(() => {
        if (this.kept === load) this.kept = undefined;
      });
    }
    return this.kept;
  }
}

async function read(ctx: AppContext): Promise<Branding> {
  const settings = await getStudio(ctx);
  return { ...settings, onAccent: textColourOn(settings.accentColor) };
}

const caches = new WeakMap<AppContext, BrandingCache>();

/** The studio's branding for the delivery pages, from memory while nothing changed it. */
export function branding(ctx: AppContext): Promise<Branding> {
  let cache = caches.get(ctx);
  if (!cache) caches.set(ctx, (cache = new BrandingCache(ctx, ctx.events)));
  return cache.get();
}

/** The studio's name as clients see it (in mails, on pages): the saved one, else STUDIO_NAME. */
export async function studioName(ctx: AppContext): Promise<string> {
  return (await branding(ctx)).name;
}

export async function getStudio(ctx: AppContext): Promise<StudioSettings> {
  return toSettings(await readStudioRow(ctx.db), ctx.config.studioName);
}

function announce(ctx: AppContext) {
  ctx.events.resourceChanged({ resource: "studio", type: "updated", ids: [STUDIO_RECORD] });
}

/** Changes the fields given; a stale If-Match changes nothing (StaleRecordError). The logo counts no version. */
export async function changeStudio(ctx: AppContext, change: StudioChange, edit: Edit): Promise<StudioSettings> {
  await writeStudioRow(ctx.db, change, nowIso(), edit);
  announce(ctx);
  return getStudio(ctx);
}

/** Stores the new logo, then points the settings at it; the old file goes once nothing names it. */
export async function replaceLogo(ctx: AppContext, bytes: Buffer): Promise<StudioSettings> {
  const key = await storeLogo(ctx.config, bytes);
  let previous: string | null;
  try {
    ({ previousLogoKey: previous } = await writeStudioRow(ctx.db, { logoKey: key }, nowIso()));
  } catch (err) {
    await removeLogo(ctx.config, key);
    throw err;
  }
  await removeLogo(ctx.config, previous);
  announce(ctx);
  return getStudio(ctx);
}

export async function deleteLogo(ctx: AppContext): Promise<StudioSettings> {
  const { previousLogoKey } = await writeStudioRow(ctx.db, { logoKey: null }, nowIso());
  await removeLogo(ctx.config, previousLogoKey);
  announce(ctx);
  return getStudio(ctx);
}

/** The stored key behind a public logo URL's name, or undefined for a name no logo has. */
export const logoKeyOf = (name: string) => (isLogoKey(`studio/${name}`) ? `studio/${name}` : undefined);
