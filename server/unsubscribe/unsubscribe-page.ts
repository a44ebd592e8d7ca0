import { escapeHtml, renderMessage } from "../delivery/delivery-page";

/**
 * The page an unsubscribe link opens: a button, not the unsubscribe itself, because mail
 * scanners open links; the button (and a mail program's one-click) posts to the same address.
 */
export function renderUnsubscribeForm(view: { studio: string; email: string }): string {
  const body =
    `<main class="narrow"><p class="studio">${escapeHtml(view.studio)}</p><h1>Unsubscribe</h1>` +
    `<p>Stop e-mails from ${escapeHtml(view.studio)} to ${escapeHtml(view.email)}?</p>` +
    `<form method="post"><button class="button" type="submit">Unsubscribe</button></form></main>`;
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">` +
    `<meta name="referrer" content="no-referrer"><title>Unsubscribe · ${escapeHtml(view.studio)}</title>` +
    `<link rel="stylesheet" href="/d/assets/delivery.css"></head><body>${body}</body></html>`
  );
}

export function renderUnsubscribed(view: { studio: string; email: string }): string {
  return renderMessage({
    studio: view.studio,
    title: "You are unsubscribed",
    text: `${view.studio} will send no more e-mails to ${view.email}.`,
  });
}

export function renderInvalidLink(studio: string): string {
  return renderMessage({
    studio,
    title: "This unsubscribe link is not valid",
    text: "Check the address in the e-mail.",
  });
}
