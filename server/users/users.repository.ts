import crypto from "node:crypto";
import type { Knex } from "knex";
import type { AccessState, ManagedUser, Role, User, WebAppLanguage } from "../../api/types";
import type { Db } from "../db/database";
import { nowIso, toIso } from "../db/database";
import { isUniqueViolation } from "../db/dialect";
import { editorNameColumn, editorOf } from "../db/edited-by";
import { serializable } from "../db/transactions";
import { ConflictError } from "../http/errors";
import { editColumns, type Edit } from "../http/record-version";
import { applyFilters, applyPage, type ListQuery, type ListSpec } from "../http/list-query";

export interface UserRow {
  uid: string;
  email: string;
  password_hash: string | null;
  display_name: string | null;
  phone_number: string | null;
  photo_url: string | null;
  email_verified: number | boolean;
  role: Role;
  has_access: number | boolean;
  google_sub: string | null;
  session_generation: number;
  access_revoked_at: string | null;
  language: WebAppLanguage;
  created_at: string;
  updated_at: string;
  /** Counted up by each change of role or access through the API (/api/users/:uid). */
  version: number | string;
  updated_by: string | null;
}

export function toUser(row: UserRow): User {
  const providerData: Array<{ providerId: string }> = [];
  if (row.password_hash) providerData.push({ providerId: "password" });
  if (row.google_sub) providerData.push({ providerId: "google.com" });
  return {
    uid: row.uid,
    email: row.email,
    displayName: row.display_name,
    emailVerified: Boolean(row.email_verified),
    phoneNumber: row.phone_number,
    photoURL: row.photo_url,
    providerData,
    role: row.role,
    hasAccess: Boolean(row.has_access),
    language: row.language,
    createdAt: toIso(row.created_at)!,
    updatedAt: toIso(row.updated_at)!,
  };
}

export function findUserRow(db: Db, uid: string): Promise<UserRow | undefined> {
  return db<UserRow>("users").where({ uid }).first();
}

export function findUserRowByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db<UserRow>("users").where({ email: email.toLowerCase() }).first();
}

export function findUserRowByGoogleSub(db: Db, sub: string): Promise<UserRow | undefined> {
  return db<UserRow>("users").where({ google_sub: sub }).first();
}

export interface NewUser {
  email: string;
  passwordHash?: string | null;
  displayName?: string | null;
  photoUrl?: string | null;
  emailVerified?: boolean;
  googleSub?: string | null;
  role?: Role;
  hasAccess?: boolean;
}

/**
 * Inserts an account. With `promoteIfFirst`, the account becomes an approved admin when the table
 * is empty: the check and the insert share one serializable transaction, so two sign-ups racing
 * on an empty database, in one process or several, cannot both become admin. Throws 409 when the
 * e-mail is taken.
 */
export async function insertUser(db: Db, user: NewUser, opts: { promoteIfFirst?: boolean } = {}): Promise<UserRow> {
  const uid = crypto.randomBytes(15).toString("base64url");
  try {
    return await serializable(db, async (trx) => {
      const first = opts.promoteIfFirst ? Number((await trx("users").count({ n: "*" }).first())?.n) === 0 : false;
      const now = nowIso();
      await trx("users").insert({
        uid,
        email: user.email.toLowerCase(),
        password_hash: user.passwordHash ?? null,
        display_name: user.displayName ?? null,
        photo_url: user.photoUrl ?? null,
        email_verified: user.emailVerified ?? false,
        google_sub: user.googleSub ?? null,
        role: first ? "admin" : (user.role ?? "staff"),
        has_access: first ? true : (user.hasAccess ?? false),
        created_at: now,
        updated_at: now,
      });
      return (await findUserRow(trx, uid))!;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new ConflictError("Email already in use");
    throw err;
  }
}

export type UserPatch = Partial<
  Pick<
    UserRow,
    | "password_hash"
    | "display_name"
    | "phone_number"
    | "photo_url"
    | "email_verified"
    | "role"
    | "has_access"
    | "google_sub"
    | "access_revoked_at"
    | "language"
  >
>;

export async function updateUserRow(db: Db, uid: string, patch: UserPatch): Promise<void> {
  if (Object.keys(patch).length > 0)
    await db("users")
      .where({ uid })
      .update({ ...patch, updated_at: nowIso() });
}

/** A change of role or access by an admin: the patch, the version counted up and who made it. */
export async function updateUserAccess(db: Db, uid: string, patch: UserPatch, edit: Edit): Promise<void> {
  await db("users")
    .where({ uid })
    .update({ ...patch, updated_at: nowIso(), ...editColumns(db, edit) });
}

/** From now on, access tokens issued earlier are refused for this user. */
export async function bumpSessionGeneration(db: Db, uid: string): Promise<void> {
  await db("users").where({ uid }).increment("session_generation", 1);
}

/** Approved admins, leaving one user out: what remains if that user lost access or the role. */
export async function countApprovedAdminsExcept(db: Db, uid: string): Promise<number> {
  const row = await db("users").where({ role: "admin", has_access: true }).whereNot({ uid }).count({ n: "*" }).first();
  return Number(row?.n);
}

export const usersListSpec: ListSpec = {
  sortable: {
    uid: "users.uid",
    id: "users.uid",
    email: "users.email",
    displayName: "users.display_name",
    role: "users.role",
    hasAccess: "users.has_access",
    createdAt: "users.created_at",
    updatedAt: "users.updated_at",
    "accessRequest.createdAt": "access_requests.created_at",
  },
  nullable: ["displayName", "accessRequest.createdAt"],
  filterable: {
    uid: { column: "users.uid", type: "text" },
    id: { column: "users.uid", type: "text" },
    email: { column: "users.email", type: "text" },
    role: { column: "users.role", type: "text" },
    hasAccess: { column: "users.has_access", type: "bool" },
  },
  searchColumn: "users.email",
  defaultSort: [
    { column: "users.created_at", order: "asc" },
    { column: "users.uid", order: "asc" },
  ],
};

/** The e-mail addresses of every approved admin: who hears of a new access request. */
export async function approvedAdminEmails(db: Db): Promise<string[]> {
  const rows = await db<UserRow>("users")
    .where({ role: "admin", has_access: true })
    .orderBy("created_at")
    .select("email");
  return rows.map((r) => r.email);
}

type ManagedUserRow = UserRow & {
  updated_by_name: string | null;
  request_message: string | null;
  request_created_at: string | null;
  request_id: number | null;
  two_factor_confirmed_at: string | Date | null;
};

/** The users-only list parameters: `access=<state>` and `q`, which searches e-mail and name. */
export interface UserListOptions {
  access?: AccessState;
}

function whereAccess(qb: Knex.QueryBuilder, access: AccessState): void {
  if (access === "approved") return void qb.where("users.has_access", true);
  qb.where("users.has_access", false);
  if (access === "pending") qb.whereNotNull("access_requests.id");
  else qb.whereNull("access_requests.id");
  if (access === "revoked") qb.whereNotNull("users.access_revoked_at");
  if (access === "none") qb.whereNull("users.access_revoked_at");
}

function whereNameOrEmail(qb: Knex.QueryBuilder, text: string): void {
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  qb.where((inner) =>
    inner
      .whereRaw("lower(users.email) like ? escape '\\'", [pattern])
      .orWhereRaw("lower(users.display_name) like ? escape '\\'", [pattern]),
  );
}

/** Search and filters of a users list, for the page and its count alike. */
function applyUserFilters(qb: Knex.QueryBuilder, list: ListQuery, options: UserListOptions): Knex.QueryBuilder {
  applyFilters(qb, { ...list, search: undefined }, usersListSpec);
  if (list.search) whereNameOrEmail(qb, list.search);
  if (options.access) whereAccess(qb, options.access);
  return qb;
}

function accessOf(row: ManagedUserRow): AccessState {
  if (row.has_access) return "approved";
  if (row.request_id !== null) return "pending";
  return row.access_revoked_at ? "revoked" : "none";
}

function managedUsers(db: Db) {
  return db("users")
    .leftJoin("access_requests", "access_requests.user_uid", "users.uid")
    .leftJoin("user_two_factor", "user_two_factor.user_uid", "users.uid")
    .select(
      "users.*",
      "user_two_factor.confirmed_at as two_factor_confirmed_at",
      "access_requests.id as request_id",
      "access_requests.message as request_message",
      "access_requests.created_at as request_created_at",
      db.raw(editorNameColumn("users.updated_by")),
    );
}

function toManagedUser(row: ManagedUserRow): ManagedUser {
  return {
    ...toUser(row),
    accessRequest:
      row.request_id === null ? null : { message: row.request_message, createdAt: toIso(row.request_created_at)! },
    access: accessOf(row),
    twoFactor: row.two_factor_confirmed_at !== null,
    version: Number(row.version),
    updatedBy: editorOf(row.updated_by, row.updated_by_name),
  };
}

export async function listManagedUsers(
  db: Db,
  list: ListQuery,
  options: UserListOptions = {},
): Promise<{ rows: ManagedUser[]; total: number }> {
  const countQuery = applyUserFilters(
    db("users").leftJoin("access_requests", "access_requests.user_uid", "users.uid"),
    list,
    options,
  );
  const [count] = await countQuery.count({ n: "*" });
  const rows = (await applyPage(applyUserFilters(managedUsers(db), list, options), list)) as ManagedUserRow[];
  return { rows: rows.map(toManagedUser), total: Number((count as { n: number | string }).n) };
}

export async function findManagedUser(db: Db, uid: string): Promise<ManagedUser | undefined> {
  const row = (await managedUsers(db).where("users.uid", uid).first()) as ManagedUserRow | undefined;
  return row ? toManagedUser(row) : undefined;
}
