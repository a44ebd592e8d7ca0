import { escapeHtml, renderMessage, type PageLanguage } from "../delivery/delivery-page";
import { accentStyle, contactLine, studioLine, type PageBrand } from "../delivery/branding-html";
import { languageMenu } from "../delivery/page-language";

/** What every unsubscribe page shows: the studio as its delivery pages show it, and the address. */
export interface UnsubscribeView extends PageLanguage {
  studio: string;
  brand?: PageBrand;
  email: string;
}

/**
 * The page an unsubscribe link opens: a button, not the unsubscribe itself, because mail
 * scanners open links; the button (and a mail program's one-click) posts to the same address.
 */
export function renderUnsubscribeForm(view: UnsubscribeView): string {
  const { tr } = view;
  const names = { studio: view.studio, email: view.email };
  const contact = contactLine(view.studio, view.brand);
  const body =
    `<main class="narrow">${studioLine(view.studio, view.brand)}<h1>${escapeHtml(tr.t("unsubscribe.title"))}</h1>` +
    `<p>${escapeHtml(tr.t("unsubscribe.question", names))}</p>` +
    `<form method="post"><button class="button" type="submit">${escapeHtml(tr.t("unsubscribe.button"))}</button></form></main>` +
    (contact ? `<footer>${contact}</footer>` : "");
  return (
    `<!doctype html><html lang="${tr.lang}" dir="${tr.dir}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">` +
    `<meta name="referrer" content="no-referrer"><title>${escapeHtml(tr.t("unsubscribe.pageTitle", names))}</title>` +
    `<link rel="stylesheet" href="/d/assets/delivery.css"></head><body${accentStyle(view.brand)}>` +
    `${languageMenu(view)}${body}</body></html>`
  );
}

/** After the button, and whenever the address is already out: no second button. */
export function renderUnsubscribed(view: UnsubscribeView): string {
  return renderMessage({
    ...view,
    title: view.tr.t("unsubscribe.doneTitle"),
    text: view.tr.t("unsubscribe.doneText", { studio: view.studio, email: view.email }),
  });
}

export function renderInvalidLink(view: Omit<UnsubscribeView, "email">): string {
  return renderMessage({
    ...view,
    title: view.tr.t("unsubscribe.invalidTitle"),
    text: view.tr.t("unsubscribe.invalidText"),
  });
}
