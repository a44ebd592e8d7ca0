import type { Knex } from "knex";
import type { ApiToken, ApiTokenScope } from "../../api/types";
import type { Db } from "../db/database";
import { toIso } from "../db/database";

interface ApiTokenRow {
  id: number;
  user_uid: string;
  name: string;
  scope: ApiTokenScope;
  prefix: string;
  expires_at: string | Date | null;
  created_at: string | Date;
  last_used_at: string | Date | null;
  last_used_address: string | null;
  email: string;
}

const COLUMNS = [
  "t.id",
  "t.user_uid",
  "t.name",
  "t.scope",
  "t.prefix",
  "t.expires_at",
  "t.created_at",
  "t.last_used_at",
  "t.last_used_address",
  "u.email",
];

function toApiToken(row: ApiTokenRow): ApiToken {
  return {
    id: Number(row.id),
    name: row.name,
    scope: row.scope,
    prefix: row.prefix,
    expiresAt: toIso(row.expires_at),
    createdAt: toIso(row.created_at)!,
    lastUsedAt: toIso(row.last_used_at),
    lastUsedAddress: row.last_used_address,
    owner: { uid: row.user_uid, email: row.email },
  };
}

const withOwner = (db: Db) => db("api_tokens as t").join("users as u", "u.uid", "t.user_uid");

/** Newest first; one user's, or everyone's. */
export async function listApiTokens(db: Db, uid?: string): Promise<ApiToken[]> {
  const query = withOwner(db).select(COLUMNS).orderBy("t.id", "desc");
  if (uid !== undefined) void query.where("t.user_uid", uid);
  return ((await query) as ApiTokenRow[]).map(toApiToken);
}

export async function insertApiToken(
  db: Db,
  token: { uid: string; name: string; scope: ApiTokenScope; prefix: string; hash: string; expiresAt: string | null },
  createdAt: string,
): Promise<number> {
  const [row] = (await db("api_tokens")
    .insert({
      user_uid: token.uid,
      name: token.name,
      scope: token.scope,
      prefix: token.prefix,
      token_hash: token.hash,
      expires_at: token.expiresAt,
      created_at: createdAt,
    })
    .returning("id")) as Array<{ id: number } | number>;
  return typeof row === "number" ? row : Number(row.id);
}

/** The token with this hash, as authentication needs it. */
export async function findApiTokenByHash(
  db: Db,
  hash: string,
): Promise<{ id: number; uid: string; scope: ApiTokenScope; expiresAt: number | null } | undefined> {
  const row = (await db("api_tokens").where({ token_hash: hash }).first("id", "user_uid", "scope", "expires_at")) as
    Pick<ApiTokenRow, "id" | "user_uid" | "scope" | "expires_at"> | undefined;
  if (!row) return undefined;
  const expiresAt = row.expires_at === null ? null : new Date(row.expires_at).getTime();
  return { id: Number(row.id), uid: row.user_uid, scope: row.scope, expiresAt };
}

/** Deletes one token (of `uid` when given); the owner's uid, or undefined when there was none. */
export async function deleteApiToken(db: Db, id: number, uid?: string): Promise<string | undefined> {
  return db.transaction(async (trx: Knex.Transaction) => {
    const query = trx("api_tokens").where({ id });
    if (uid !== undefined) void query.where("user_uid", uid);
    const row = (await query.clone().first("user_uid")) as { user_uid: string } | undefined;
    if (!row) return undefined;
    await query.delete();
    return row.user_uid;
  });
}

export async function noteApiTokenUse(db: Db, id: number, at: string, address: string | null): Promise<void> {
  await db("api_tokens").where({ id }).update({ last_used_at: at, last_used_address: address });
}
