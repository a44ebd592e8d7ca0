import { escapeHtml, formatSize } from "../delivery/delivery-page";

/** What a mail to a client says: the same facts in its HTML and its plain-text part. */
export interface ClientMailView {
  studio: string;
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

const UTC = { timeZone: "UTC" } as const;

/** `14 March 2099` (UTC). */
export const formatDay = (iso: string) =>
  new Date(iso).toLocaleDateString("en-GB", { ...UTC, day: "numeric", month: "long", year: "numeric" });

/** `Saturday 14 March 2099, 18:30 UTC`: clients are anywhere, so the zone is named. */
export const formatExpiry = (iso: string) =>
  `${new Date(iso).toLocaleDateString("en-GB", { ...UTC, weekday: "long" })} ${formatDay(iso)}, ${new Date(iso).toISOString().slice(11, 16)} UTC`;

const photosLine = (v: ClientMailView) =>
  `${v.photoCount} ${v.photoCount === 1 ? "photo" : "photos"}, ${formatSize(v.totalSize)}`;

export const BUTTON_TEXT = "View and download the photos";

function factLines(v: ClientMailView): string[] {
  return [
    photosLine(v),
    ...(v.expiresAt ? [`Available until ${formatExpiry(v.expiresAt)}.`] : []),
    ...(v.passcode ? [`Passcode: ${v.passcode}`] : []),
    ...(v.passcodeHint ? ["Open it with the passcode you were given."] : []),
  ];
}

function text(v: ClientMailView): string {
  return [
    v.message,
    "",
    v.projectName,
    ...factLines(v),
    "",
    `${BUTTON_TEXT}:`,
    v.link,
    "",
    "-- ",
    v.studio,
    `Unsubscribe from these e-mails: ${v.unsubscribeUrl}`,
    "",
  ].join("\n");
}

const paragraphs = (message: string) =>
  message
    .split(/\n{2,}/)
    .map((p) => `<p style="margin:0 0 16px">${escapeHtml(p).replace(/\n/g, "<br>")}</p>`)
    .join("");

function html(v: ClientMailView): string {
  const link = escapeHtml(v.link);
  const facts = factLines(v)
    .map((line) => `<p style="margin:0 0 6px;color:#495057">${escapeHtml(line)}</p>`)
    .join("");
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(v.projectName)}</title></head>` +
    `<body style="margin:0;padding:24px;background:#f1f3f5;font-family:Helvetica,Arial,sans-serif;color:#212529">` +
    `<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px">` +
    `<p style="margin:0 0 8px;font-size:13px;letter-spacing:.08em;text-transform:uppercase;color:#868e96">${escapeHtml(v.studio)}</p>` +
    `<h1 style="margin:0 0 24px;font-size:24px">${escapeHtml(v.projectName)}</h1>` +
    paragraphs(v.message) +
    facts +
    `<p style="margin:28px 0"><a href="${link}" style="display:inline-block;padding:12px 22px;background:#1c7ed6;color:#ffffff;text-decoration:none;border-radius:6px;font-weight:bold">${BUTTON_TEXT}</a></p>` +
    `<p style="margin:0;font-size:13px;color:#868e96">Or open this address: <a href="${link}" style="color:#1c7ed6">${link}</a></p>` +
    `</div><p style="max-width:560px;margin:16px auto 0;font-size:12px;color:#868e96;text-align:center">` +
    `${escapeHtml(v.studio)} · <a href="${escapeHtml(v.unsubscribeUrl)}" style="color:#868e96">Unsubscribe from these e-mails</a></p>` +
    `</body></html>`
  );
}

export function renderClientMail(view: ClientMailView): { text: string; html: string } {
  return { text: text(view), html: html(view) };
}

/** Names people typed, made safe for a header: any control character (CR, LF...) becomes a space. */
export const oneLine = (value: string) => value.replace(/[\u0000-\u001f\u007f]+/g, " ").trim();

/** What the dialog opens with; the sender can change both. */
export function defaultTexts(studio: string, projectName: string): { subject: string; message: string } {
  return {
    subject: oneLine(`Your photos from ${studio}: ${projectName}`),
    message: `Hello,\n\nYour photos of ${projectName} are ready. You can view them and download them all from the link below.\n\nWith best wishes,\n${studio}`,
  };
}

/** A reminder's subject and words: it repeats the link and says until when it works. */
export function reminderTexts(studio: string, projectName: string, expiresAt: string) {
  return {
    subject: oneLine(`Reminder: your photos of ${projectName} are available until ${formatDay(expiresAt)}`),
    message: `Hello,\n\nA reminder from ${studio}: your photos of ${projectName} can be downloaded until ${formatExpiry(expiresAt)}. After that the link stops working.`,
  };
}
