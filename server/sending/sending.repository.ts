import type { Db } from "../db/database";

/** What a client's mail and its rules need to know of a project. */
export interface ProjectForMail {
  id: number;
  name: string;
  clientId: number | null;
  clientName: string | null;
  published: boolean;
  /** `published/<token>.zip` while published. */
  zipPath: string | null;
  publishedAt: string | null;
  expiresAt: string | null;
  passcodeHash: string | null;
  photoCount: number;
  totalSize: number;
  lastDownloadAt: string | null;
  reminderDays: number | null;
  /** The project's language for its clients; null: the studio's. */
  language: string | null;
}

export const PROJECT_FOR_MAIL_COLUMNS = [
  "p.id",
  "p.name",
  "p.client_id",
  "c.name as client_name",
  "p.publish_status",
  "p.published_zip_path",
  "p.published_at",
  "p.delivery_expires_at",
  "p.delivery_passcode_hash",
  "p.attachment_count",
  "p.total_file_size",
  "p.delivery_last_download_at",
  "p.delivery_reminder_days",
  "p.language",
];

export function toProjectForMail(r: Record<string, unknown>): ProjectForMail {
  return {
    id: Number(r.id),
    name: r.name as string,
    clientId: (r.client_id as number | null) ?? null,
    clientName: (r.client_name as string | null) ?? null,
    published: r.publish_status === "published",
    zipPath: (r.published_zip_path as string | null) ?? null,
    publishedAt: (r.published_at as string | null) ?? null,
    expiresAt: (r.delivery_expires_at as string | null) ?? null,
    passcodeHash: (r.delivery_passcode_hash as string | null) ?? null,
    photoCount: Number(r.attachment_count ?? 0),
    totalSize: Number(r.total_file_size ?? 0),
    lastDownloadAt: (r.delivery_last_download_at as string | null) ?? null,
    reminderDays: r.delivery_reminder_days === null ? null : Number(r.delivery_reminder_days),
    language: (r.language as string | null | undefined) ?? null,
  };
}

export const projectsWithClients = (db: Db) =>
  db("projects as p").leftJoin("clients as c", "c.id", "p.client_id").select(PROJECT_FOR_MAIL_COLUMNS);

export async function findProjectForMail(db: Db, id: number): Promise<ProjectForMail | undefined> {
  const row = await projectsWithClients(db).where("p.id", id).first();
  return row && toProjectForMail(row);
}

export interface ContactAddress {
  id: number;
  clientId: number;
  name: string;
  email: string;
}

/** The client's contacts that have an address, by name. */
export async function contactsWithAddress(db: Db, clientId: number): Promise<ContactAddress[]> {
  const rows = await db("contacts")
    .where({ client_id: clientId })
    .whereNotNull("email")
    .whereNot("email", "")
    .orderBy([{ column: "name" }, { column: "id" }])
    .select("id", "client_id", "name", "email");
  return rows.map((r) => ({ id: r.id, clientId: r.client_id, name: r.name, email: r.email }));
}

export async function contactsByIds(db: Db, ids: number[]): Promise<ContactAddress[]> {
  if (ids.length === 0) return [];
  const rows = await db("contacts").whereIn("id", ids).select("id", "client_id", "name", "email");
  return rows.map((r) => ({ id: r.id, clientId: r.client_id, name: r.name, email: r.email ?? "" }));
}

export interface NewRecipient {
  projectId: number;
  email: string;
  name: string | null;
  linkKey: string;
  zipPath: string;
  linkOrigin: string;
  sentBy: string;
  sentAt: string;
}

export async function insertRecipient(db: Db, r: NewRecipient): Promise<void> {
  await db("delivery_recipients").insert({
    project_id: r.projectId,
    email: r.email,
    name: r.name,
    link_key: r.linkKey,
    zip_path: r.zipPath,
    link_origin: r.linkOrigin,
    sent_by: r.sentBy,
    sent_at: r.sentAt,
  });
}

export interface LinkRecipient {
  id: number;
  projectId: number;
  email: string;
  name: string | null;
}

/** The recipient whose mail carried this key, for this very link while the project still has it (a regenerated link's keys are void). */
export async function findRecipientOfLink(
  db: Db,
  linkKey: string,
  zipPath: string,
): Promise<LinkRecipient | undefined> {
  const row = await db("delivery_recipients as r")
    .join("projects as p", "p.id", "r.project_id")
    .where({ "r.link_key": linkKey, "r.zip_path": zipPath, "p.published_zip_path": zipPath })
    .first("r.id", "r.project_id", "r.email", "r.name");
  return row && { id: row.id, projectId: row.project_id, email: row.email, name: row.name };
}

/** The first full download of this address on this project (every mail it got); later ones keep the first time. */
export async function markRecipientDownloaded(db: Db, projectId: number, email: string, at: string): Promise<void> {
  await db("delivery_recipients")
    .where({ project_id: projectId })
    .whereRaw("lower(email) = ?", [email.toLowerCase()])
    .whereNull("downloaded_at")
    .update({ downloaded_at: at });
}

/** One address that was sent the project's current link: its latest mail's key and origin. */
export interface LinkHolder {
  email: string;
  name: string | null;
  linkKey: string;
  linkOrigin: string;
}

/** Each address's latest mail of the link the project has now (a regenerated link's mails are void). */
function latestMailsOfLink(db: Db, projectId: number) {
  return db("delivery_recipients as r")
    .join("projects as p", "p.id", "r.project_id")
    .where("r.project_id", projectId)
    .where("p.published_zip_path", db.ref("r.zip_path"))
    .whereNotExists(
      db("delivery_recipients as later")
        .select(db.raw("1"))
        .whereRaw("later.project_id = r.project_id")
        .whereRaw("later.zip_path = r.zip_path")
        .whereRaw("lower(later.email) = lower(r.email)")
        .whereRaw("later.id > r.id"),
    );
}

/** How many addresses were sent the link the project has now. */
export async function countHoldersOfLink(db: Db, projectId: number): Promise<number> {
  const row = await latestMailsOfLink(db, projectId).count({ n: "*" }).first();
  return Number(row?.n ?? 0);
}

/** Every address sent the link the project has now, each once, with its latest mail. */
export async function holdersOfLink(db: Db, projectId: number): Promise<LinkHolder[]> {
  const rows = await latestMailsOfLink(db, projectId)
    .orderBy("r.id")
    .select("r.email", "r.name", "r.link_key", "r.link_origin");
  return rows.map((r) => ({
    email: r.email as string,
    name: (r.name as string | null) ?? null,
    linkKey: r.link_key as string,
    linkOrigin: r.link_origin as string,
  }));
}
