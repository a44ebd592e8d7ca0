import type { IncomingMessage } from "node:http";
import type { AppContext } from "../context";
import { branding } from "../studio/studio.service";
import { translator, type Translator } from "../i18n/i18n";
import { pageLanguage } from "../i18n/choose-language";
import { renderMessage, type PageLanguage } from "./delivery-page";
import type { PageBrand } from "./branding-html";

/** What an expired link's page and its ZIP's page say beneath the title (English; the page says it in its language). */
export const GONE_TEXT = "Ask the studio for a new link.";
/** What an unknown link's page and an unknown ZIP link's page say beneath the title. */
export const UNKNOWN_TEXT = "Check the address, or ask the studio for a new link.";

/** The studio's name and branding, as every page of a delivery shows them. */
export async function brandOf(ctx: AppContext): Promise<{ studio: string; brand: PageBrand }> {
  const brand = await branding(ctx);
  return { studio: brand.name, brand };
}

/**
 * The texts a client's page is drawn in for this request: the visitor's choice, the browser's
 * (when the studio follows it), the project's (`project`, null: none), the studio's.
 */
export async function pageTranslator(
  ctx: AppContext,
  req: IncomingMessage,
  project: string | null = null,
): Promise<Translator> {
  return translator(pageLanguage(req, { project, studio: await branding(ctx) }));
}

/** The studio's branded page saying the catalogue's `title` and `text`, with how to ask the studio. */
export async function messagePage(ctx: AppContext, page: PageLanguage, title: string, text: string): Promise<string> {
  const { t } = page.tr;
  return renderMessage({ ...(await brandOf(ctx)), ...page, title: t(title), text: t(text), ask: true });
}
