import { formatSizeIn } from "../i18n/format";
import type { Translator } from "../i18n/i18n";
import { escapeHtml } from "./escape-html";

/** What the gallery offers to download: nothing on a view-only link. */
export interface GalleryDownloads {
  /** The originals, one by one and as the ZIP. */
  originals: boolean;
  /** The web size (the previews), one by one. */
  webSize: boolean;
  /** The web-size ZIP's size, when the project has one to offer. */
  webZipSize?: number;
}

/** The header's ZIP buttons; a view-only gallery says it offers none. */
export function zipLinks(tr: Translator, downloads: GalleryDownloads, zipSize: number): string {
  const text = (key: string, bytes?: number) =>
    escapeHtml(tr.t(key, bytes === undefined ? undefined : { size: formatSizeIn(tr.lang, bytes) }));
  if (!downloads.originals) return `<p class="view-only">${text("gallery.noDownloads")}</p>`;
  const web =
    downloads.webSize && downloads.webZipSize !== undefined
      ? `<a class="button secondary" href="web.zip" download>${text("gallery.downloadWebSize", downloads.webZipSize)}</a>`
      : "";
  return `<div class="downloads"><a class="button" href="all.zip" download>${text("gallery.downloadAll", zipSize)}</a>${web}</div>`;
}

/** What the grid tells the script to put in the viewer: `original`, `original web`, or nothing. */
export function downloadsAttribute(downloads: GalleryDownloads): string {
  if (!downloads.originals) return "";
  return ` data-downloads="${downloads.webSize ? "original web" : "original"}"`;
}
