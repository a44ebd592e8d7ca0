import type { DeliveryPhoto } from "./delivery.repository";
import { accentStyle, askTheStudio, contactLine, studioLine, type PageBrand } from "./branding-html";
import { escapeHtml } from "./escape-html";
import { formatFileSize as formatSize } from "../../api/format-size";
import { downloadsAttribute, zipLinks, type GalleryDownloads } from "./download-links-html";

export { escapeHtml, formatSize };

function layout(title: string, body: string, base?: string, brand?: PageBrand): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="robots" content="noindex"><meta name="referrer" content="no-referrer">` +
    (base ? `<base href="${escapeHtml(base)}">` : "") +
    `<title>${escapeHtml(title)}</title>` +
    `<link rel="stylesheet" href="/d/assets/delivery.css"><script src="/d/assets/delivery.js" defer></script>` +
    // Favourites: their own script and styles, after the page's.
    `<link rel="stylesheet" href="/d/assets/favourites.css"><script src="/d/assets/favourites.js" defer></script>` +
    `</head><body${accentStyle(brand)}>${body}</body></html>`
  );
}

/** Photos in the page's first answer and in each later part the script asks for (`photos?from=`). */
export const PHOTOS_PER_PART = 200;

export interface GalleryView {
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
function partLinks(from: number, shown: number, total: number): string {
  const links = [
    from > 1
      ? `<a class="button secondary previous" href="?from=${Math.max(1, from - PHOTOS_PER_PART)}">Previous photos</a>`
      : "",
    from + shown <= total ? `<a class="button secondary more" href="?from=${from + shown}">More photos</a>` : "",
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
  const count = `${total} ${total === 1 ? "photo" : "photos"}`;
  const from = Math.min(Math.max(1, view.from), Math.max(1, total));
  const part = view.photos.slice(from - 1, from - 1 + PHOTOS_PER_PART);
  const items = part.map((p, i) => photoItem(p, from + i, view.downloads.originals)).join("");
  const body =
    `<header>${cover(view)}<div class="intro"><p class="meta">${count} · ${formatSize(bytes)}</p>` +
    `${zipLinks(view.downloads, view.zipSize)}</div></header>` +
    `<main><ul class="grid" data-from="${from}" data-total="${total}" data-part="${PHOTOS_PER_PART}"` +
    `${downloadsAttribute(view.downloads)}>${items}</ul>` +
    `${partLinks(from, part.length, total)}</main>${footer(view.studio, view.brand)}`;
  return layout(`${view.projectName} · ${view.studio}`, body, `/d/${view.token}/`, view.brand);
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
export function renderPasscodeForm(view: { studio: string; brand?: PageBrand; token: string; error?: string }): string {
  const error = view.error ? `<p class="error" role="alert">${escapeHtml(view.error)}</p>` : "";
  const body =
    `<main class="narrow">${studioLine(view.studio, view.brand)}<h1>Enter the passcode</h1>` +
    `<p>These photos are protected by a passcode.</p>` +
    `<form method="post" action="/d/${escapeHtml(view.token)}/unlock">` +
    `<label for="passcode">Passcode</label>` +
    `<input id="passcode" name="passcode" type="password" required maxlength="64" autocomplete="current-password" autofocus>` +
    `${error}<button class="button" type="submit">View photos</button></form></main>${footer(view.studio, view.brand)}`;
  return layout(view.studio, body, undefined, view.brand);
}

/** A page with a title and a line of text; `ask` adds 'Ask the studio', a button to its first contact. */
export function renderMessage(view: {
  studio: string;
  brand?: PageBrand;
  title: string;
  text?: string;
  ask?: boolean;
}): string {
  const body =
    `<main class="narrow">${studioLine(view.studio, view.brand)}<h1>${escapeHtml(view.title)}</h1>` +
    `${view.text ? `<p>${escapeHtml(view.text)}</p>` : ""}${view.ask ? askTheStudio(view.brand) : ""}</main>` +
    footer(view.studio, view.brand);
  return layout(view.studio, body, undefined, view.brand);
}

function footer(studio: string, brand: PageBrand | undefined): string {
  const contact = contactLine(studio, brand);
  return contact ? `<footer>${contact}</footer>` : "";
}
