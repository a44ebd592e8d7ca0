import type { Db } from "../db/database";
import { toIso } from "../db/database";
import type { Contact } from "../../api/types";
import type { ListQuery, ListSpec } from "../http/list-query";
import { listPage } from "../db/list-pages";

interface ContactRow {
  id: number;
  client_id: number;
  name: string;
  email: string | null;
  phone_number: string | null;
  created_at: string;
  updated_at: string;
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
  };
}

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
    columns: "*",
    idColumn: "id",
    countedBy: { client_id: { table: "clients", column: "contact_count" } },
  });
  return { rows: rows.map(toContact), total };
}

export async function contactsOfClient(db: Db, clientId: number): Promise<Contact[]> {
  const rows: ContactRow[] = await db("contacts").where({ client_id: clientId }).orderBy("id");
  return rows.map(toContact);
}

export async function findContact(db: Db, id: number): Promise<Contact | undefined> {
  const row: ContactRow | undefined = await db("contacts").where({ id }).first();
  return row && toContact(row);
}

export async function insertContact(db: Db, values: ContactValues, now: string): Promise<number> {
  const [row] = await db("contacts").insert({ ...toRow(values), created_at: now, updated_at: now }, ["id"]);
  return typeof row === "object" ? row.id : row;
}

export async function updateContact(db: Db, id: number, values: Partial<ContactValues>, now: string): Promise<boolean> {
  return (
    (await db("contacts")
      .where({ id })
      .update({ ...toRow(values), updated_at: now })) > 0
  );
}

export async function deleteContact(db: Db, id: number): Promise<boolean> {
  return (await db("contacts").where({ id }).delete()) > 0;
}
