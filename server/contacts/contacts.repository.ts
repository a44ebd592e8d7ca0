import type { Db } from "../db/database";
import { toIso } from "../db/database";
import type { Contact } from "../../api/types";
import type { ListQuery, ListSpec } from "../http/list-query";
import { listPage } from "../db/list-pages";
import { editorNameColumn, editorOf } from "../db/edited-by";
import { editColumns, whereVersion, type Edit } from "../http/record-version";

interface ContactRow {
  id: number;
  client_id: number;
  name: string;
  email: string | null;
  phone_number: string | null;
  created_at: string;
  updated_at: string;
  version: number | string;
  updated_by: string | null;
  /** Read beside the row: the editor's name (editorNameColumn). */
  updated_by_name?: string | null;
}

export interface ContactValues {
  clientId: number;
  name: string;
  email: string | null;
  phoneNumber: string | null;
}

export const contactListSpec: ListSpec = {
  sortable: { id: "id", name: "name", email: "email", createdAt: "created_at", updatedAt: "updated_at" },
  nullable: ["email"],
  filterable: { id: { column: "id", type: "int" }, clientId: { column: "client_id", type: "int" } },
  searchColumn: "name",
  defaultSort: [{ column: "id", order: "asc" }],
};

function toContact(row: ContactRow): Contact {
  return {
    id: row.id,
    clientId: row.client_id,
    name: row.name,
    email: row.email ?? null,
    phoneNumber: row.phone_number ?? null,
    createdAt: toIso(row.created_at)!,
    updatedAt: toIso(row.updated_at)!,
    version: Number(row.version),
    updatedBy: editorOf(row.updated_by, row.updated_by_name),
  };
}

/** A contact's columns and its editor's name. */
const CONTACT_COLUMNS = `contacts.*, ${editorNameColumn("contacts.updated_by")}`;

function toRow(values: Partial<ContactValues>): Partial<ContactRow> {
  const row: Partial<ContactRow> = {};
  if (values.clientId !== undefined) row.client_id = values.clientId;
  if (values.name !== undefined) row.name = values.name;
  if (values.email !== undefined) row.email = values.email;
  if (values.phoneNumber !== undefined) row.phone_number = values.phoneNumber;
  return row;
}

export async function listContacts(db: Db, list: ListQuery): Promise<{ rows: Contact[]; total: number }> {
  const { rows, total } = await listPage<ContactRow>(db, list, contactListSpec, {
    table: "contacts",
    from: "contacts",
    columns: CONTACT_COLUMNS,
    idColumn: "id",
    countedBy: { client_id: { table: "clients", column: "contact_count" } },
  });
  return { rows: rows.map(toContact), total };
}

export async function contactsOfClient(db: Db, clientId: number): Promise<Contact[]> {
  const rows: ContactRow[] = await db("contacts")
    .where({ client_id: clientId })
    .orderBy("id")
    .select(db.raw(CONTACT_COLUMNS));
  return rows.map(toContact);
}

export async function findContact(db: Db, id: number): Promise<Contact | undefined> {
  const row: ContactRow | undefined = await db("contacts").where({ id }).first(db.raw(CONTACT_COLUMNS));
  return row && toContact(row);
}

export async function insertContact(db: Db, values: ContactValues, now: string, by: string): Promise<number> {
  const [row] = await db("contacts").insert({ ...toRow(values), created_at: now, updated_at: now, updated_by: by }, [
    "id",
  ]);
  return typeof row === "object" ? row.id : row;
}

/** Changes the fields given when the version is one the edit may apply to; false when nothing matched. */
export async function updateContact(
  db: Db,
  id: number,
  values: Partial<ContactValues>,
  now: string,
  edit: Edit,
): Promise<boolean> {
  const query = whereVersion(db("contacts").where({ id }), edit.condition);
  return (await query.update({ ...toRow(values), updated_at: now, ...editColumns(db, edit) })) > 0;
}

export async function deleteContact(db: Db, id: number): Promise<boolean> {
  return (await db("contacts").where({ id }).delete()) > 0;
}
