import type { IncomingMessage } from "node:http";
import type { AppContext } from "../context";
import { branding } from "../studio/studio.service";
import { translator, type Translator } from "../i18n/i18n";
import { pageLanguage } from "../i18n/choose-language";
import { renderMessage, type PageLanguage } from "./delivery-page";
import type { PageBrand } from "./branding-html";

/** What every client's page is drawn with: the studio as it is branded, and this request's language. */
export interface ClientPage extends PageLanguage {
  studio: string;
  brand: PageBrand;
}

/**
 * The studio's branding and the texts a client's page is drawn in for this request, from one read
 * of the branding: the visitor's choice, the browser's (when the studio follows it), the project's
 * (`project`, null: none), the studio's. `here`: the page's own path, for its language menu.
 */
export async function clientPage(
  ctx: AppContext,
  req: IncomingMessage,
  project: string | null = null,
  here?: string,
): Promise<ClientPage> {
  const brand = await branding(ctx);
  return { studio: brand.name, brand, tr: translator(pageLanguage(req, { project, studio: brand })), here };
}

/**
 * What the language of an answer is chosen by besides its URL (`?lang=`): the visitor's cookie
 * (`pd_lang`) and, when the studio follows it, the browser's language.
 */
export const LANGUAGE_VARY = "Cookie, Accept-Language";

/** What every answer drawn in the visitor's language says of it: the language, and what chose it. */
export const languageHeaders = (tr: Translator) => ({ "Content-Language": tr.lang, Vary: LANGUAGE_VARY });

/** The texts of this request's page alone (a ZIP's file name). */
export async function pageTranslator(
  ctx: AppContext,
  req: IncomingMessage,
  project: string | null = null,
): Promise<Translator> {
  return (await clientPage(ctx, req, project)).tr;
}

/** The studio's branded page saying the catalogue's `title` and `text`, with how to ask the studio. */
export function messagePage(page: ClientPage, title: string, text: string): string {
  const { t } = page.tr;
  return renderMessage({ ...page, title: t(title), text: t(text), ask: true });
}
