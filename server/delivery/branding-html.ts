import { escapeHtml } from "./escape-html";
import type { Translator } from "../i18n/i18n";
import type { StudioSettings } from "../../api/types";
import { DEFAULT_ACCENT, isAccentColour, isWebsite, textColourOn } from "../../api/studio";

/** What a delivery page shows of the studio. */
export type PageBrand = Omit<StudioSettings, "updatedAt">;

/**
 * The accent and the text colour drawn on it, as custom properties on <body> (the CSP allows
 * inline styles). Checked again here: only #rrggbb ever reaches the attribute.
 */
export function accentStyle(brand: PageBrand | undefined): string {
  if (!brand) return "";
  const accent = isAccentColour(brand.accentColor) ? brand.accentColor.toLowerCase() : DEFAULT_ACCENT;
  return ` style="--accent:${accent};--on-accent:${textColourOn(accent)}"`;
}

/** The studio's line at the top of every page: its logo (our own re-encoded image) and its name. */
export function studioLine(studio: string, brand: PageBrand | undefined, className = "studio"): string {
  const logo =
    brand?.logoUrl && /^\/d\/logo\/[0-9a-f]{32}\.webp$/.test(brand.logoUrl)
      ? `<img class="logo" src="${brand.logoUrl}" alt="" height="40">`
      : "";
  return `<p class="${className}">${logo}<span>${escapeHtml(studio)}</span></p>`;
}

interface ContactLink {
  href: string;
  text: string;
}

/** E-mail, phone and web site as links, each only if it is still what the settings allow (pages and mails). */
export function contactLinks(
  brand: Pick<PageBrand, "contactEmail" | "contactPhone" | "contactWebsite"> | undefined,
): ContactLink[] {
  if (!brand) return [];
  const links: ContactLink[] = [];
  if (brand.contactEmail) links.push({ href: `mailto:${brand.contactEmail}`, text: brand.contactEmail });
  const dial = brand.contactPhone?.replace(/[^0-9+]/g, "");
  if (brand.contactPhone && dial) links.push({ href: `tel:${dial}`, text: brand.contactPhone });
  if (brand.contactWebsite && isWebsite(brand.contactWebsite))
    links.push({
      href: brand.contactWebsite,
      text: brand.contactWebsite.replace(/^https?:\/\//, "").replace(/\/$/, ""),
    });
  return links;
}

/** The contact line: the studio's e-mail, phone and web site as links; nothing when none is set. */
export function contactLine(studio: string, brand: PageBrand | undefined): string {
  const links = contactLinks(brand);
  if (links.length === 0) return "";
  const items = links
    .map((l) => `<a href="${escapeHtml(l.href)}" rel="noopener">${escapeHtml(l.text)}</a>`)
    .join(" · ");
  return `<address class="contact"><span>${escapeHtml(studio)}</span> · ${items}</address>`;
}

/** 'Ask the studio', a button to the first way of reaching it (mail, phone, site), or nothing. */
export function askTheStudio(tr: Translator, brand: PageBrand | undefined): string {
  const first = contactLinks(brand)[0];
  const text = escapeHtml(tr.t("page.askTheStudio"));
  return first ? `<p><a class="button" href="${escapeHtml(first.href)}" rel="noopener">${text}</a></p>` : "";
}
