/**
 * The API's shapes (contract sections 2 and 3), declared once: the server answers with them and
 * the web app reads them. Types only, so importing them puts no server code in the web bundle.
 */

import type { ClientLanguage } from "./client-languages";

export type Role = "admin" | "staff";

/** The languages the staff web app is shipped in; each user picks one in the user menu. */
export type WebAppLanguage = "en" | "de";

/** A user as the API shows it (contract section 2). */
export interface User {
  uid: string;
  email: string;
  displayName: string | null;
  emailVerified: boolean;
  phoneNumber: string | null;
  photoURL: string | null;
  providerData: Array<{ providerId: string }>;
  role: Role;
  hasAccess: boolean;
  /** The web app's language this user chose (English until they choose). */
  language: WebAppLanguage;
  createdAt: string;
  updatedAt: string;
}

export interface AccessRequest {
  message: string | null;
  createdAt: string;
}

/**
 * Where a user stands, as the users list shows it: approved; pending (not approved, asked);
 * revoked (an admin took access away, no new request since); none (signed up, never asked).
 */
export type AccessState = "approved" | "pending" | "revoked" | "none";

/** A staff member as an edited record names them: display name, else e-mail. */
export interface Editor {
  uid: string;
  name: string;
}

/**
 * What every editable record carries: its version (also its `ETag: "<version>"`; counted up by each
 * edit through the API, sent back as If-Match) and who made the last of those edits.
 */
export interface Versioned {
  version: number;
  updatedBy: Editor | null;
}

/** A user as the admin resource /api/users shows it; its version follows changes of role and access. */
export interface ManagedUser extends User, Versioned {
  accessRequest: AccessRequest | null;
  access: AccessState;
  /** Two-factor sign-in is on. Always sent; optional so objects written before it still type-check. */
  twoFactor?: boolean;
}

/** What the identity endpoints answer. */
export interface Session {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  user: User;
}

export interface Client extends Versioned {
  id: number;
  name: string;
  createdAt: string;
  updatedAt: string;
  projectCount: number;
  contactCount: number;
}

/** Absent values are null. */
export interface Contact extends Versioned {
  id: number;
  clientId: number;
  name: string;
  email: string | null;
  phoneNumber: string | null;
  createdAt: string;
  updatedAt: string;
}

export type PublishStatus = "draft" | "publishing" | "published" | "failed";

/** Capture time (EXIF, falling back to file name), file name in natural order, or upload order. */
export type PhotoOrder = "captured" | "name" | "uploaded";

export interface Project extends Versioned {
  id: number;
  name: string;
  description: string | null;
  clientId: number | null;
  client: { id: number; name: string } | null;
  /** How the project's photos are ordered everywhere (staff list, gallery, ZIPs, favourites); fixed while published. */
  photoOrder: PhotoOrder;
  publishStatus: PublishStatus;
  publishedAt: string | null;
  publishedZipPath: string | null;
  downloadUrl: string | null;
  /** Why the last build failed, while publishStatus is `failed`. */
  publishError: string | null;
  /** The client's delivery page, `/d/<token>` (the token is the ZIP's random name), while published. */
  deliveryUrl: string | null;
  delivery: DeliverySettings;
  /** The photo across the top of the delivery page: the one staff chose, else the first; null without photos. */
  coverAttachmentId: number | null;
  attachmentCount: number;
  totalFileSize: number;
  createdAt: string;
  updatedAt: string;
}

/** A project's delivery link settings and what its client did with it. */
export interface DeliverySettings {
  expiresAt: string | null;
  hasPasscode: boolean;
  /** Page views (the gallery shown, not the passcode form). */
  views: number;
  /** Full transfers of the ZIP, however many Range requests each took. */
  downloads: number;
  lastDownloadAt: string | null;
  /** Off: a view-only proofing gallery, with no ZIP and no photo downloads (thumbnails and previews still show). */
  allowDownloads: boolean;
  /** The previews (web size) offered for download beside the originals: per photo, and as a ZIP built at publish. */
  offerWebSize: boolean;
  /** Favourites: photos each visitor of the delivery page may choose; null: no limit. */
  favouritesLimit: number | null;
  /** The language of the gallery and its clients' mails; null: the studio's. */
  language: ClientLanguage | null;
}

/** The four links carry a short-lived signature, so they work in an <img> or a new tab. */
export interface Attachment {
  id: number;
  projectId: number;
  originalName: string;
  mimeType: string;
  size: number;
  width: number | null;
  height: number | null;
  checksum: string;
  createdAt: string;
  updatedAt: string;
  viewUrl: string;
  downloadUrl: string;
  thumbnailUrl: string;
  /** The photo at screen size (long edge PREVIEW_SIZE, upright, sRGB JPEG): what a viewer shows. */
  previewUrl: string;
}

/** GET /api/projects/{id} */
export interface ProjectWithAttachments extends Project {
  attachments: Attachment[];
}

/** GET /api/clients/{id} */
export interface ClientWithRelations extends Client {
  contacts: Contact[];
  projects: Project[];
}

/** Sizes in bytes; diskUsage in GB. */
export interface DashboardStats {
  clientCount: number;
  projectCount: number;
  attachmentCount: number;
  totalFileSize: number;
  /**
   * GB (1024³): used = photos + published ZIPs; total = used + free space on the photos' volume.
   * In a bucket, which reports no size to run out of, total = used and percentage 0.
   */
  diskUsage: { used: number; total: number; percentage: number };
  /** Where the photos and ZIPs are kept: the volume holding UPLOADS_DIR, or STORAGE_URL's bucket. */
  location: { kind: "disk" } | { kind: "bucket"; bucket: string };
  /**
   * Bytes: what Photodrop keeps, and the free/total space of the file system holding UPLOADS_DIR.
   * Absent in a bucket: the local disk then holds only uploads being received.
   */
  storage?: { photosBytes: number; zipsBytes: number; freeBytes: number; totalBytes: number };
}

/** GET /api/projects/{id}/sending: what the 'Send to client' dialog opens with. */
export interface SendingDraft {
  subject: string;
  message: string;
  /** The project client's contacts that have an e-mail address; `valid` false: not one a mail can go to. */
  contacts: Array<{ id: number; name: string; email: string; unsubscribed: boolean; valid: boolean }>;
  hasPasscode: boolean;
  /** Addresses mailed the link the project has now (since its latest regeneration): whom publishing again can notify. */
  linkHolders: number;
  /** Why nothing can be sent now (not published, expired, no mail server, no reachable link), or null. */
  problem: string | null;
}

/** POST /api/projects/{id}/sending */
export interface SendRequest {
  contactIds: number[];
  /** Addresses typed in the dialog. */
  emails: string[];
  subject: string;
  message: string;
  /** The link's passcode typed again, to include it in the mail; it is stored only as a hash. */
  passcode?: string;
}

/** One mail per recipient: those the mail server took, those it refused, those not mailed. */
export interface SendResult {
  sent: string[];
  failed: Array<{ email: string; message: string }>;
  skipped: Array<{ email: string; reason: string }>;
}

export type DeliveryActivityType =
  "sent" | "reminder" | "views" | "download" | "photo_download" | "passcode_failures" | "link_regenerated" | "expired";

/** The originals, or the previews offered as the web size. */
export type DownloadSize = "original" | "web";

/** GET /api/projects/{id}/activity: one entry of the 'Delivery activity' timeline (newest first). */
export interface DeliveryActivity {
  id: number;
  projectId: number;
  type: DeliveryActivityType;
  /** When it happened; for a day's views or passcode failures, the latest of them. */
  at: string;
  /** The day (UTC, YYYY-MM-DD) a counted row covers (views, passcode failures); otherwise null. */
  day: string | null;
  /** How many times (views, passcode failures); 1 otherwise. */
  count: number;
  /** The staff member who did it (sent, link regenerated). */
  by: string | null;
  /** Whom it went to (sent, reminder), or who did it when the link told (a download by a recipient). */
  recipients: string[];
  /** Recipients the mail server refused (sent). */
  failed: string[];
  /** The photo (photo_download). */
  photo: string | null;
  /** Which size was downloaded (ZIP and photo downloads): the originals or the web size; null before it was recorded. */
  size: DownloadSize | null;
  /** Expired with no full download of the ZIP (expired). */
  unused: boolean;
}

/** GET/PUT /api/projects/{id}/reminders: remind this many days before the link expires; null: off. */
export interface ReminderSettings {
  days: number | null;
}

/** GET/PUT /api/users/me/notifications: the signed-in staff member's own delivery mails. */
export interface NotificationSettings {
  /** Mail me when a client downloads a gallery I sent, or its link expires unused. */
  deliveryMail: boolean;
}

/** A selection a client sent from a delivery page, as the bell lists it (GET /api/users/me/notifications/selections). */
export interface SelectionNotice {
  visitorId: number;
  projectId: number;
  projectName: string;
  visitorName: string;
  photoCount: number;
  sentAt: string;
}

/** GET/PUT /api/studio/settings: the studio's branding, shown on every client's delivery page. */
export interface StudioSettings extends Versioned {
  /** As saved, or STUDIO_NAME until an admin saves one. */
  name: string;
  /** The logo on the delivery pages (`/d/logo/<name>.webp`), or null. */
  logoUrl: string | null;
  /** #rrggbb, the delivery page's buttons and bands; the default until an admin chooses one. */
  accentColor: string;
  contactEmail: string | null;
  contactPhone: string | null;
  contactWebsite: string | null;
  /** IANA name (`Europe/Berlin`): the zone of times in the client's mails; the server's until chosen. */
  timeZone: string;
  /** The language of the clients' galleries and mails (`en`, `de`, … `ar`), unless a project chooses its own. */
  language: ClientLanguage;
  /** Galleries follow the visitor's browser language (when it is one of ours), before the project's and the studio's. */
  followBrowserLanguage: boolean;
  /**
   * Everyone must turn on two-factor sign-in before anything else. Always sent; optional here only so
   * settings objects written before it still type-check.
   */
  requireTwoFactor?: boolean;
  updatedAt: string | null;
}

/** What an API token may do: `read` only GET/HEAD, `write` all a staff member may, `admin` (admins only) the admin routes too. */
export type ApiTokenScope = "read" | "write" | "admin";

/** GET /api/users/me/tokens, GET /api/tokens: a token as lists show it (never the token itself). */
export interface ApiToken {
  id: number;
  name: string;
  scope: ApiTokenScope;
  /** `pd_` and the next 8 characters: enough to tell tokens apart. */
  prefix: string;
  expiresAt: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  lastUsedAddress: string | null;
  /** Whose token it is (in GET /api/tokens, the admins' list of everyone's). */
  owner: { uid: string; email: string };
}

/** POST /api/users/me/tokens */
export interface ApiTokenRequest {
  name: string;
  scope: ApiTokenScope;
  expiresAt: string | null;
}

/** 201 of POST /api/users/me/tokens: the token itself, shown this once. */
export interface CreatedApiToken {
  id: number;
  name: string;
  scope: ApiTokenScope;
  expiresAt: string | null;
  createdAt: string;
  token: string;
}

/** GET /api/webhooks (admins): an endpoint; `active` false when turned off, by hand or after 3 days of failures. */
export interface Webhook {
  id: number;
  url: string;
  events: string[];
  description: string | null;
  active: boolean;
  createdAt: string;
  updatedAt: string;
}

/** 201 of POST /api/webhooks, or PATCH with `rotateSecret`: the secret, shown this once. */
export type WebhookWithSecret = Webhook & { secret: string };

/** GET /api/webhooks/{id}/attempts: the last 100 sends to an endpoint, newest first. */
export interface WebhookAttempt {
  id: number;
  attemptedAt: string;
  eventType: string;
  eventId: string;
  /** The receiver's HTTP status, or null when no answer came. */
  status: number | null;
  ok: boolean;
  durationMs: number;
  /** The first 200 characters of the answer, or what went wrong. */
  response: string | null;
}
