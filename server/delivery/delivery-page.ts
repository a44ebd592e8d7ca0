import type { DeliveryPhoto } from "./delivery.repository";

/** Every interpolated value goes through this: project and file names are whatever people typed. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const SIZE_UNITS = ["B", "KB", "MB", "GB", "TB"];

/** 1024-based with one decimal, as the web app shows sizes: 512 B, 1.5 KB, 3.2 MB. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${SIZE_UNITS[unit]}`;
}

function layout(title: string, body: string, base?: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="robots" content="noindex"><meta name="referrer" content="no-referrer">` +
    (base ? `<base href="${escapeHtml(base)}">` : "") +
    `<title>${escapeHtml(title)}</title>` +
    `<link rel="stylesheet" href="/d/assets/delivery.css"><script src="/d/assets/delivery.js" defer></script>` +
    `</head><body>${body}</body></html>`
  );
}

const studioLine = (studio: string) => `<p class="studio">${escapeHtml(studio)}</p>`;

export interface GalleryView {
  studio: string;
  token: string;
  projectName: string;
  photos: DeliveryPhoto[];
  zipSize: number;
}

/**
 * The delivery page: the grid links each thumbnail to its photo, so it works before (or without)
 * the script, which adds the full-screen viewer. URLs are relative to `/d/<token>/`.
 */
export function renderGallery(view: GalleryView): string {
  const total = view.photos.reduce((sum, p) => sum + p.size, 0);
  const count = `${view.photos.length} ${view.photos.length === 1 ? "photo" : "photos"}`;
  const items = view.photos
    .map(
      (p, i) =>
        `<li><a href="p/${i + 1}" data-dl="p/${i + 1}/download"><img src="t/${i + 1}" alt="${escapeHtml(p.originalName)}" loading="lazy" decoding="async"></a></li>`,
    )
    .join("");
  const body =
    `<header>${studioLine(view.studio)}<h1>${escapeHtml(view.projectName)}</h1>` +
    `<p class="meta">${count} · ${formatSize(total)}</p>` +
    `<a class="button" href="all.zip" download>Download all (ZIP, ${formatSize(view.zipSize)})</a></header>` +
    `<main><ul class="grid">${items}</ul></main>`;
  return layout(`${view.projectName} · ${view.studio}`, body, `/d/${view.token}/`);
}

/** A plain form, so it works before any script loads. */
export function renderPasscodeForm(view: { studio: string; token: string; error?: string }): string {
  const error = view.error ? `<p class="error" role="alert">${escapeHtml(view.error)}</p>` : "";
  const body =
    `<main class="narrow">${studioLine(view.studio)}<h1>Enter the passcode</h1>` +
    `<p>These photos are protected by a passcode.</p>` +
    `<form method="post" action="/d/${escapeHtml(view.token)}/unlock">` +
    `<label for="passcode">Passcode</label>` +
    `<input id="passcode" name="passcode" type="password" required maxlength="64" autocomplete="current-password" autofocus>` +
    `${error}<button class="button" type="submit">View photos</button></form></main>`;
  return layout(view.studio, body);
}

export function renderMessage(view: { studio: string; title: string; text?: string }): string {
  const body = `<main class="narrow">${studioLine(view.studio)}<h1>${escapeHtml(view.title)}</h1>${view.text ? `<p>${escapeHtml(view.text)}</p>` : ""}</main>`;
  return layout(view.studio, body);
}
