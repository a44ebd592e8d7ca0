import type { AppContext } from "../context";
import { branding } from "../studio/studio.service";
import { renderMessage } from "./delivery-page";
import type { PageBrand } from "./branding-html";

/** What an expired link's page and its ZIP's page say beneath the title. */
export const GONE_TEXT = "Ask the studio for a new link.";
/** What an unknown link's page and an unknown ZIP link's page say beneath the title. */
export const UNKNOWN_TEXT = "Check the address, or ask the studio for a new link.";

/** The studio's name and branding, as every page of a delivery shows them. */
export async function brandOf(ctx: AppContext): Promise<{ studio: string; brand: PageBrand }> {
  const brand = await branding(ctx);
  return { studio: brand.name, brand };
}

/** The studio's branded page saying `title` and `text`, with how to ask the studio. */
export async function messagePage(ctx: AppContext, title: string, text: string): Promise<string> {
  return renderMessage({ ...(await brandOf(ctx)), title, text, ask: true });
}
