import { escapeHtml } from "../delivery/delivery-page";
import { inlineAttachments, type MailBrand } from "../mail/client-brand";
import { contactLinks } from "../delivery/branding-html";
import { translator, type Translator } from "../i18n/i18n";
import { formatDayIn, formatExpiryIn, formatSizeIn } from "../i18n/format";
import type { Language } from "../i18n/languages";

/** What a mail to a client says: the same facts in its HTML and its plain-text part. */
export interface ClientMailView {
  /** The mail's language: the project's, else the studio's. */
  tr: Translator;
  /** The studio: its name, colours, contact line, time zone, logo, and the project's cover. */
  brand: MailBrand;
  projectName: string;
  photoCount: number;
  totalSize: number;
  expiresAt: string | null;
  /** The studio's own words (sent), or the reminder's. */
  message: string;
  /** This recipient's link to the delivery page. */
  link: string;
  /** The passcode itself (sent, when the sender chose to include it). */
  passcode?: string;
  /** A reminder of a link with a passcode says to use the one the client has. */
  passcodeHint?: boolean;
  unsubscribeUrl: string;
}

/** `Saturday 14 March 2099, 19:30 CET`: clients are anywhere, so the zone is named. */
export const formatExpiry = (iso: string, timeZone = "UTC", lang: Language = "en") =>
  formatExpiryIn(lang, iso, timeZone);

const photosLine = ({ tr, photoCount, totalSize }: ClientMailView) =>
  tr.t("mail.photos", { count: photoCount, size: formatSizeIn(tr.lang, totalSize) });

function factLines(v: ClientMailView): string[] {
  const { t, lang } = v.tr;
  return [
    photosLine(v),
    ...(v.expiresAt ? [t("mail.availableUntil", { date: formatExpiry(v.expiresAt, v.brand.timeZone, lang) })] : []),
    ...(v.passcode ? [t("mail.passcode", { passcode: v.passcode })] : []),
    ...(v.passcodeHint ? [t("mail.passcodeHint")] : []),
  ];
}

/** The studio's e-mail, phone and web site, those it gave. */
const contacts = (brand: MailBrand) =>
  [brand.contactEmail, brand.contactPhone, brand.contactWebsite].filter((c): c is string => Boolean(c));

function text(v: ClientMailView): string {
  return [
    v.message,
    "",
    v.projectName,
    ...factLines(v),
    "",
    v.tr.t("mail.buttonLead"),
    v.link,
    "",
    "-- ",
    v.brand.name,
    ...(contacts(v.brand).length ? [contacts(v.brand).join(" · ")] : []),
    v.tr.t("mail.unsubscribeText", { url: v.unsubscribeUrl }),
    "",
  ].join("\n");
}

const paragraphs = (message: string) =>
  message
    .split(/\n{2,}/)
    .map((p) => `<p style="margin:0 0 16px">${escapeHtml(p).replace(/\n/g, "<br>")}</p>`)
    .join("");

/** The contact line, each part a link a phone can follow (the delivery page's links). */
function contactLine(brand: MailBrand): string {
  const parts = contactLinks(brand).map(
    ({ href, text }) =>
      `<a href="${escapeHtml(href)}" style="color:#495057;word-break:break-all">${escapeHtml(text)}</a>`,
  );
  return parts.length
    ? `<p class="contact" style="margin:24px 0 0;font-size:13px;color:#495057">${parts.join(" · ")}</p>`
    : "";
}

/** The studio's logo (inline), or its name in small capitals. */
function masthead(brand: MailBrand): string {
  const { logo } = brand;
  return logo
    ? `<p style="margin:0 0 16px"><img src="cid:${logo.cid}" width="${logo.width}" height="${logo.height}" alt="${escapeHtml(brand.name)}" style="display:block;border:0;max-width:100%;height:auto"></p>`
    : `<p style="margin:0 0 8px;font-size:13px;letter-spacing:.08em;text-transform:uppercase;color:#868e96">${escapeHtml(brand.name)}</p>`;
}

function coverImage(brand: MailBrand): string {
  const { cover } = brand;
  return cover
    ? `<p style="margin:0 0 24px"><img src="cid:${cover.cid}" width="${cover.width}" height="${cover.height}" alt="" style="display:block;border:0;width:100%;max-width:${cover.width}px;height:auto;border-radius:6px"></p>`
    : "";
}

/**
 * A 600 px card that shrinks to the window (a table, as older mail programs lay out only those),
 * the long link broken anywhere so that it never runs past the card on a 320 px phone.
 */
function html(v: ClientMailView): string {
  const { brand, tr } = v;
  const link = escapeHtml(v.link);
  const text = (key: string) => escapeHtml(tr.t(key));
  const facts = factLines(v)
    .map((line) => `<p style="margin:0 0 6px;color:#495057">${escapeHtml(line)}</p>`)
    .join("");
  return (
    `<!doctype html><html lang="${tr.lang}" dir="${tr.dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(v.projectName)}</title></head>` +
    `<body style="margin:0;padding:0;background:#f1f3f5;font-family:Helvetica,Arial,sans-serif;color:#212529">` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="width:100%;background:#f1f3f5"><tr><td align="center" style="padding:16px 8px">` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="width:100%;max-width:600px;table-layout:fixed">` +
    `<tr><td style="background:#ffffff;border-radius:8px;padding:24px 20px;word-wrap:break-word;overflow-wrap:break-word">` +
    masthead(brand) +
    `<h1 style="margin:0 0 20px;font-size:24px">${escapeHtml(v.projectName)}</h1>` +
    coverImage(brand) +
    paragraphs(v.message) +
    facts +
    `<p style="margin:28px 0"><a href="${link}" class="button" style="display:inline-block;padding:12px 22px;background:${brand.accent};color:${brand.onAccent};text-decoration:none;border-radius:6px;font-weight:bold">${text("mail.button")}</a></p>` +
    `<p style="margin:0;font-size:13px;color:#868e96">${text("mail.orOpen")} <a href="${link}" class="link" style="color:#495057;word-break:break-all">${link}</a></p>` +
    contactLine(brand) +
    `</td></tr>` +
    `<tr><td style="padding:16px 8px 0;font-size:12px;color:#868e96;text-align:center">` +
    `${escapeHtml(brand.name)} · <a href="${escapeHtml(v.unsubscribeUrl)}" style="color:#868e96">${text("mail.unsubscribe")}</a></td></tr>` +
    `</table></td></tr></table></body></html>`
  );
}

/** The mail's text and HTML parts, and the inline images its HTML shows. */
export function renderClientMail(view: ClientMailView) {
  return { text: text(view), html: html(view), attachments: inlineAttachments(view.brand) };
}

/** Names people typed, made safe for a header: any control character (CR, LF...) becomes a space. */
export const oneLine = (value: string) => value.replace(/[\u0000-\u001f\u007f]+/g, " ").trim();

/** What the dialog opens with, in the mail's language; the sender can change both. */
export function defaultTexts(
  studio: string,
  projectName: string,
  lang: Language = "en",
): { subject: string; message: string } {
  const { t } = translator(lang);
  return {
    subject: oneLine(t("mail.subject", { studio, project: projectName })),
    message: t("mail.message", { studio, project: projectName }),
  };
}

/** A reminder's subject and words: it repeats the link and says until when it works. */
export function reminderTexts(
  studio: string,
  projectName: string,
  expiresAt: string,
  timeZone = "UTC",
  lang: Language = "en",
) {
  const { t } = translator(lang);
  const project = projectName;
  return {
    subject: oneLine(t("mail.reminderSubject", { project, day: formatDayIn(lang, expiresAt, timeZone) })),
    message: t("mail.reminderMessage", { studio, project, date: formatExpiry(expiresAt, timeZone, lang) }),
  };
}
