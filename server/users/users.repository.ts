import type { Db } from "../db/database";
import { toIso } from "../db/database";

export type Role = "admin" | "staff";

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
  created_at: string;
  updated_at: string;
}

/** The user as the API shows it (contract section 2). */
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
  createdAt: string;
  updatedAt: string;
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
