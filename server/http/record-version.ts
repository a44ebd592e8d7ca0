import type { Request, Response } from "express";
import type { Knex } from "knex";
import type { Editor } from "../../api/types";
import { HttpError, ValidationError } from "./errors";
import { sendJson } from "./page-cache";

/**
 * Optimistic concurrency for the editable records (clients, contacts, projects and their delivery
 * settings, the studio's settings, users' role and access): each carries a `version`, answered as a
 * strong `ETag: "<version>"`; a write whose `If-Match` names another version is refused with 412 and
 * the current record, and nothing changes. The check is part of the write itself (`UPDATE … WHERE
 * version IN (…)`, or a locked read in the write's transaction), so two writes sent with the same
 * If-Match cannot both succeed. Without If-Match a write changes the fields it sends, as before.
 */

export const STALE_RECORD_MESSAGE = "Someone else saved this record while you were editing";
const MALFORMED_IF_MATCH = "If-Match must be * or a list of entity tags";

/** The versions a write may apply to: any (`*`, or no If-Match), or one of these. */
export type VersionCondition = "any" | readonly number[];

/** Who writes, and on which versions the write may apply. */
export interface Edit {
  by: string;
  condition: VersionCondition;
}

const ENTITY_TAG = /^(?:W\/)?"([\x21\x23-\x7e\x80-\xff]*)"$/;
const VERSION = /^[1-9]\d{0,14}$/;

/**
 * The versions an If-Match names: "any" without the header or with `*`; a tag that is not a
 * version this server gives (`"abc"`) matches none. Not an entity tag list: 400.
 */
function versionCondition(header: string | undefined): VersionCondition {
  if (header === undefined) return "any";
  const value = header.trim();
  if (value === "*") return "any";
  // Empty list elements are allowed (RFC 9110 5.6.1), an empty list is not.
  const tags = value
    .split(",")
    .map((tag) => tag.trim())
    .filter(Boolean);
  if (tags.length === 0) throw new ValidationError(MALFORMED_IF_MATCH, { "If-Match": MALFORMED_IF_MATCH });
  const versions: number[] = [];
  for (const tag of tags) {
    const match = ENTITY_TAG.exec(tag);
    if (!match) throw new ValidationError(MALFORMED_IF_MATCH, { "If-Match": MALFORMED_IF_MATCH });
    if (VERSION.test(match[1])) versions.push(Number(match[1]));
  }
  return versions;
}

/** The edit a request asks for: by the signed-in staff member, on the versions its If-Match names. */
export function editOf(req: Request, by: string): Edit {
  return { by, condition: versionCondition(req.get("if-match")) };
}

export const versionMatches = (condition: VersionCondition, version: number): boolean =>
  condition === "any" || condition.includes(version);

/** Limits an UPDATE to the versions the edit may apply to. */
export function whereVersion<Q extends Knex.QueryBuilder>(
  query: Q,
  condition: VersionCondition,
  column = "version",
): Q {
  return condition === "any" ? query : (query.whereIn(column, condition as number[]) as Q);
}

/** The columns every edit writes beside its own: the version counted up, and who made it. */
export function editColumns(db: Knex, edit: Edit, column = "version"): Record<string, unknown> {
  return { [column]: db.raw("?? + 1", [column]), updated_by: edit.by };
}

/** Thrown when the record exists but its version is not one the If-Match named. */
export class StaleRecordError extends HttpError {
  constructor() {
    super(412, STALE_RECORD_MESSAGE);
  }
}

/** A record as it is answered (an object, or its JSON already as bytes) and its version. */
export interface VersionedRecord {
  body: unknown;
  version: number;
}

const etagOf = (version: number) => `"${version}"`;

export function sendVersioned(res: Response, record: VersionedRecord, status = 200): void {
  res.status(status).set("ETag", etagOf(record.version));
  if (Buffer.isBuffer(record.body)) sendJson(res, record.body);
  else res.json(record.body);
}

/** A record known by its version and last editor (api/types.ts Versioned). */
export const versionedOf = <T extends { version: number }>(body: T): VersionedRecord => ({
  body,
  version: body.version,
});

/**
 * 412 with the record as it is now (as GET answers it) and who saved it last, and its ETag, so
 * the client can show the change and retry on top of it.
 */
function sendStale(res: Response, current: VersionedRecord): void {
  const bytes = Buffer.isBuffer(current.body) ? current.body : Buffer.from(JSON.stringify(current.body));
  const { updatedBy } = JSON.parse(bytes.toString("utf8")) as { updatedBy?: Editor | null };
  const head = JSON.stringify({ statusCode: 412, message: STALE_RECORD_MESSAGE });
  const tail = `,"changedBy":${JSON.stringify(updatedBy ?? null)}}`;
  res.status(412).set("ETag", etagOf(current.version));
  sendJson(res, Buffer.concat([Buffer.from(`${head.slice(0, -1)},"current":`), bytes, Buffer.from(tail)]));
}

/**
 * Answers a write with its record and ETag, or, when the record changed since the If-Match's
 * version, with 412 and the current record (read by `current`).
 */
export async function answerWrite(
  res: Response,
  write: () => Promise<VersionedRecord>,
  current: () => Promise<VersionedRecord>,
  status = 200,
): Promise<void> {
  let written: VersionedRecord;
  try {
    written = await write();
  } catch (err) {
    if (!(err instanceof StaleRecordError)) throw err;
    return sendStale(res, await current());
  }
  sendVersioned(res, written, status);
}
