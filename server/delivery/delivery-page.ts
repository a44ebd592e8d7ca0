import type { DeliveryPhoto } from "./delivery.repository";
import { accentStyle, askTheStudio, contactLine, studioLine, type PageBrand } from "./branding-html";
import { escapeHtml } from "./escape-html";
import { formatFileSize as formatSize } from "../../api/format-size";
import { downloadsAttribute, zipLinks, type GalleryDownloads } from "./download-links-html";
import { languageMenu, scriptTexts, type PageLanguage } from "./page-language";
import { formatSizeIn } from "../i18n/format";
import type { Translator } from "../i18n/i18n";

export { escapeHtml, formatSize };
export type { PageLanguage };

/** Every client page's frame: `lang` and `dir` always the language shown, its language menu on top. */
function layout(page: PageLanguage, title: string, body: string, base?: string, brand?: PageBrand, texts = ""): string {
  const { tr } = page;
  return (
    `<!doctype html><html lang="${tr.lang}" dir="${tr.dir}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="robots" content="noindex"><meta name="referrer" content="no-referrer">` +
    (base ? `<base href="${escapeHtml(base)}">` : "") +
    `<title>${escapeHtml(title)}</title>` +
    `<link rel="stylesheet" href="/d/assets/delivery.css"><script src="/d/assets/delivery.js" defer></script>` +
    // Favourites: their own script and styles, after the page's.
    `<link rel="stylesheet" href="/d/assets/favourites.css"><script src="/d/assets/favourites.js" defer></script>` +
    `</head><body${accentStyle(brand)}>${languageMenu(page)}${body}${texts}</body></html>`
  );
}

/** Photos in the page's first answer and in each later part the script asks for (`photos?from=`). */
export const PHOTOS_PER_PART = 200;

export interface GalleryView extends PageLanguage {
  studio: string;
  brand?: PageBrand;
  /** The cover photo's id (the project's choice), or null for the first photo. */
  coverId?: number | null;
  token: string;
  projectName: string;
  /** Every photo of the delivery, in the ZIP's order. */
  photos: DeliveryPhoto[];
  /** The 1-based position of the first photo this page shows (a later part, without the script). */
  from: number;
  zipSize: number;
  downloads: GalleryDownloads;
}

/**
 * How wide a grid cell is drawn (delivery.css): a third of a phone's width, and at most about
 * 300 px on a wider screen. A browser takes the thumbnail (400 px) where that is sharp enough and
 * the preview (2048 px) on a denser screen.
 */
export const GRID_SIZES = "(max-width: 600px) 34vw, 300px";

/** One photo of the grid: its thumbnail (or preview, by `srcset`), linking to the photo; `n` is its 1-based position. */
function photoItem(photo: DeliveryPhoto, n: number, originals: boolean): string {
  const ratio = aspectRatio(photo);
  // A view-only link's photos lead to their previews: its originals are not served.
  const link = originals ? `href="p/${n}" data-dl="p/${n}/download"` : `href="v/${n}"`;
  return `<li${ratio ? ` style="--r:${ratio}"` : ""}><a ${link}><img src="t/${n}" srcset="t/${n} 400w, v/${n} 2048w" sizes="${GRID_SIZES}" alt="${escapeHtml(photo.originalName)}" loading="lazy" decoding="async"></a></li>`;
}

/** Width over height to three decimals, for the grid's rows; undefined while unknown. */
export function aspectRatio(photo: Pick<DeliveryPhoto, "width" | "height">): number | undefined {
  if (!photo.width || !photo.height) return undefined;
  return Math.round(Math.min(Math.max(photo.width / photo.height, 0.2), 5) * 1000) / 1000;
}

/**
 * The cover across the top: the chosen photo (or the first) under the studio's and the project's
 * names, on a dark band so the white text reads over any photo.
 */
function cover(view: GalleryView): string {
  const at = Math.max(
    0,
    view.photos.findIndex((p) => p.id === view.coverId),
  );
  const photo = view.photos[at];
  const names = `${studioLine(view.studio, view.brand)}<h1>${escapeHtml(view.projectName)}</h1>`;
  if (!photo) return `<div class="titles">${names}</div>`;
  return (
    `<div class="cover"><img src="v/${at + 1}" alt="" fetchpriority="high" decoding="async">` +
    `<div class="cover-text">${names}</div></div>`
  );
}

/** Links to the parts before and after this one: how a browser without the script moves on. */
function partLinks(tr: Translator, from: number, shown: number, total: number): string {
  const text = (key: string) => escapeHtml(tr.t(key));
  const links = [
    from > 1
      ? `<a class="button secondary previous" href="?from=${Math.max(1, from - PHOTOS_PER_PART)}">${text("gallery.previousPhotos")}</a>`
      : "",
    from + shown <= total
      ? `<a class="button secondary more" href="?from=${from + shown}">${text("gallery.morePhotos")}</a>`
      : "",
  ].join("");
  return links ? `<nav class="parts">${links}</nav>` : "";
}

/**
 * The delivery page: the grid links each thumbnail to its photo, so it works before (or without)
 * the script, which adds the full-screen viewer (showing each photo's preview) over every photo and loads further parts of the
 * grid as the client scrolls. One part at most is in the HTML, whatever the size of the
 * delivery. URLs are relative to `/d/<token>/`.
 */
export function renderGallery(view: GalleryView): string {
  const total = view.photos.length;
  const bytes = view.photos.reduce((sum, p) => sum + p.size, 0);
  const { tr } = view;
  const count = escapeHtml(tr.t("gallery.photoCount", { count: total }));
  const from = Math.min(Math.max(1, view.from), Math.max(1, total));
  const part = view.photos.slice(from - 1, from - 1 + PHOTOS_PER_PART);
  const items = part.map((p, i) => photoItem(p, from + i, view.downloads.originals)).join("");
  const body =
    `<header>${cover(view)}<div class="intro"><p class="meta">${count} · ${escapeHtml(formatSizeIn(tr.lang, bytes))}</p>` +
    `${zipLinks(tr, view.downloads, view.zipSize)}</div></header>` +
    `<main><ul class="grid" data-from="${from}" data-total="${total}" data-part="${PHOTOS_PER_PART}"` +
    `${downloadsAttribute(view.downloads)}>${items}</ul>` +
    `${partLinks(tr, from, part.length, total)}</main>${footer(view.studio, view.brand)}`;
  const texts = scriptTexts(tr, view.downloads.originals);
  return layout(view, `${view.projectName} · ${view.studio}`, body, `/d/${view.token}/`, view.brand, texts);
}

/** A part of the grid for the script: what it needs to draw each photo and page the viewer to it. */
export function galleryPart(photos: DeliveryPhoto[], from: number) {
  return {
    from,
    total: photos.length,
    photos: photos
      .slice(from - 1, from - 1 + PHOTOS_PER_PART)
      .map((p) => ({ name: p.originalName, ratio: aspectRatio(p) ?? null })),
  };
}

/** A plain form, so it works before any script loads. */
export function renderPasscodeForm(
  view: PageLanguage & { studio: string; brand?: PageBrand; token: string; error?: string },
): string {
  const text = (key: string) => escapeHtml(view.tr.t(key));
  const error = view.error ? `<p class="error" role="alert">${escapeHtml(view.error)}</p>` : "";
  const body =
    `<main class="narrow">${studioLine(view.studio, view.brand)}<h1>${text("passcode.title")}</h1>` +
    `<p>${text("passcode.text")}</p>` +
    `<form method="post" action="/d/${escapeHtml(view.token)}/unlock">` +
    `<label for="passcode">${text("passcode.label")}</label>` +
    `<input id="passcode" name="passcode" type="password" required maxlength="64" autocomplete="current-password" autofocus>` +
    `${error}<button class="button" type="submit">${text("passcode.submit")}</button></form></main>${footer(view.studio, view.brand)}`;
  return layout(view, view.studio, body, undefined, view.brand);
}

/** A page with a title and a line of text; `ask` adds 'Ask the studio', a button to its first contact. */
export function renderMessage(
  view: PageLanguage & {
    studio: string;
    brand?: PageBrand;
    title: string;
    text?: string;
    ask?: boolean;
  },
): string {
  const body =
    `<main class="narrow">${studioLine(view.studio, view.brand)}<h1>${escapeHtml(view.title)}</h1>` +
    `${view.text ? `<p>${escapeHtml(view.text)}</p>` : ""}${view.ask ? askTheStudio(view.tr, view.brand) : ""}</main>` +
    footer(view.studio, view.brand);
  return layout(view, view.studio, body, undefined, view.brand);
}

function footer(studio: string, brand: PageBrand | undefined): string {
  const contact = contactLine(studio, brand);
  return contact ? `<footer>${contact}</footer>` : "";
}
