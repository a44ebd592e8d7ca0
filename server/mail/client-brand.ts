import sharp from "sharp";
import type { AppContext } from "../context";
import { branding } from "../studio/studio.service";
import { readStudioRow } from "../studio/studio.repository";
import { readAll } from "../storage/object-store";
import { storesOf } from "../storage/stores";
import { firstPhotoIdSql } from "../attachments/photo-order";
import { mailLanguage } from "../i18n/choose-language";
import type { Language } from "../i18n/languages";

/** An image a mail carries inline, shown where its HTML says `cid:<cid>`. */
export interface InlineImage {
  cid: string;
  filename: string;
  contentType: string;
  content: Buffer;
  width: number;
  height: number;
}

/** The studio as a client's mail shows it. */
export interface MailBrand {
  name: string;
  accent: string;
  /** Black or white, whichever reads better on the accent (api/studio.ts textColourOn). */
  onAccent: string;
  contactEmail: string | null;
  contactPhone: string | null;
  contactWebsite: string | null;
  /** IANA name: the zone the expiry is given in. */
  timeZone: string;
  /** The mail's language: the project's, else the studio's. */
  language: Language;
  logo?: InlineImage;
  cover?: InlineImage;
}

/** The logo's height in the mail, in CSS pixels (drawn from twice as many for sharp screens). */
const MAIL_LOGO_HEIGHT = 48;
/** The cover's width in the mail's 600 px card, drawn at twice that. */
const MAIL_COVER_WIDTH = 536;

const readKey = async (ctx: AppContext, key: string) => readAll(await storesOf(ctx.config).uploads.get(key));

/** PNG, which every mail program shows (the stored logo is WebP, which Outlook does not). */
async function logoImage(ctx: AppContext, key: string): Promise<InlineImage> {
  const { data, info } = await sharp(await readKey(ctx, key))
    .resize({ height: MAIL_LOGO_HEIGHT * 2, withoutEnlargement: true })
    .png()
    .toBuffer({ resolveWithObject: true });
  const height = Math.min(MAIL_LOGO_HEIGHT, info.height);
  const width = Math.round((info.width * height) / info.height);
  return { cid: "studio-logo", filename: "logo.png", contentType: "image/png", content: data, width, height };
}

/**
 * The logo as a mail shows it, converted once per logo and kept: a new logo comes under a new key.
 * A conversion that failed is tried again at the next mail.
 */
const mailLogos = new WeakMap<AppContext, { key: string; image: Promise<InlineImage> }>();
function mailLogo(ctx: AppContext, key: string): Promise<InlineImage> {
  const kept = mailLogos.get(ctx);
  if (kept?.key === key) return kept.image;
  const image = logoImage(ctx, key);
  mailLogos.set(ctx, { key, image });
  image.catch(() => {
    if (mailLogos.get(ctx)?.image === image) mailLogos.delete(ctx);
  });
  return image;
}

/** The project's cover (its chosen photo, else the first in its order), from its preview: a small JPEG. */
async function coverImage(ctx: AppContext, projectId: number): Promise<InlineImage | undefined> {
  const row = (await ctx
    .db("projects as p")
    .join("attachments as a", "a.id", ctx.db.raw(`COALESCE(p.cover_attachment_id, ${firstPhotoIdSql("p")})`))
    .where("p.id", projectId)
    .first("a.preview_key", "a.thumbnail_key")) as
    { preview_key: string | null; thumbnail_key: string | null } | undefined;
  const key = row?.preview_key ?? row?.thumbnail_key;
  if (!key) return undefined;
  const { data, info } = await sharp(await readKey(ctx, key))
    .resize({ width: MAIL_COVER_WIDTH * 2, height: MAIL_COVER_WIDTH, fit: "cover", withoutEnlargement: true })
    .jpeg({ quality: 72, mozjpeg: true })
    .toBuffer({ resolveWithObject: true });
  const width = Math.min(MAIL_COVER_WIDTH, info.width);
  const height = Math.round((info.height * width) / info.width);
  return { cid: "gallery-cover", filename: "cover.jpg", contentType: "image/jpeg", content: data, width, height };
}

/**
 * The studio's branding for a client's mail about a project: colours, contact line, time zone,
 * and its logo and the project's cover as inline images. An image that cannot be read is left out
 * (logged): the mail still goes.
 */
export async function clientMailBrand(
  ctx: AppContext,
  project: { id: number; language: string | null },
): Promise<MailBrand> {
  const projectId = project.id;
  const [studio, row] = await Promise.all([branding(ctx), readStudioRow(ctx.db)]);
  const quietly = <T>(what: string, image: Promise<T>) =>
    image.catch((err: unknown) => {
      ctx.logger.warn({ err, projectId }, `the ${what} could not be put in the client's mail`);
      return undefined;
    });
  const [logo, cover] = await Promise.all([
    row.logoKey ? quietly("logo", mailLogo(ctx, row.logoKey)) : undefined,
    quietly("cover", coverImage(ctx, projectId)),
  ]);
  return {
    name: studio.name,
    accent: studio.accentColor,
    onAccent: studio.onAccent,
    contactEmail: studio.contactEmail,
    contactPhone: studio.contactPhone,
    contactWebsite: studio.contactWebsite,
    timeZone: studio.timeZone,
    language: mailLanguage({ project: project.language, studio }),
    ...(logo && { logo }),
    ...(cover && { cover }),
  };
}

/** What nodemailer attaches for the brand's inline images. */
export const inlineAttachments = (brand: MailBrand) =>
  [brand.logo, brand.cover]
    .filter((image): image is InlineImage => image !== undefined)
    .map(({ cid, filename, contentType, content }) => ({ cid, filename, contentType, content }));
