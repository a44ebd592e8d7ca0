import { escapeHtml, renderMessage } from "../delivery/delivery-page";
import { accentStyle, contactLine, studioLine, type PageBrand } from "../delivery/branding-html";

/** What every unsubscribe page shows: the studio as its delivery pages show it, and the address. */
export interface UnsubscribeView {
  studio: string;
  brand?: PageBrand;
  email: string;
}

const UNSUBSCRIBED_TITLE = "You're unsubscribed";

/**
 * The page an unsubscribe link opens: a button, not the unsubscribe itself, because mail
 * scanners open links; the button (and a mail program's one-click) posts to the same address.
 */
export function renderUnsubscribeForm(view: UnsubscribeView): string {
  const contact = contactLine(view.studio, view.brand);
  const body =
    `<main class="narrow">${studioLine(view.studio, view.brand)}<h1>Unsubscribe</h1>` +
    `<p>Stop e-mails from ${escapeHtml(view.studio)} to ${escapeHtml(view.email)}?</p>` +
    `<form method="post"><button class="button" type="submit">Unsubscribe</button></form></main>` +
    (contact ? `<footer>${contact}</footer>` : "");
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">` +
    `<meta name="referrer" content="no-referrer"><title>Unsubscribe · ${escapeHtml(view.studio)}</title>` +
    `<link rel="stylesheet" href="/d/assets/delivery.css"></head><body${accentStyle(view.brand)}>${body}</body></html>`
  );
}

/** After the button, and whenever the address is already out: no second button. */
export function renderUnsubscribed(view: UnsubscribeView): string {
  return renderMessage({
    studio: view.studio,
    brand: view.brand,
    title: UNSUBSCRIBED_TITLE,
    text: `${view.studio} will send no more e-mails to ${view.email}.`,
  });
}

export function renderInvalidLink(view: Omit<UnsubscribeView, "email">): string {
  return renderMessage({
    ...view,
    title: "This unsubscribe link is not valid",
    text: "Check the address in the e-mail.",
  });
}
