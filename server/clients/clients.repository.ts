import type { Knex } from "knex";
import type { Db } from "../db/database";
import { toIso } from "../db/database";
import type { Client } from "../../api/types";
import { listWithAggregates, type ListQuery, type ListSpec } from "../http/list-query";

interface ClientRow {
  id: number;
  name: string;
  created_at: string;
  updated_at: string;
  project_count: number | string;
  contact_count: number | string;
}

export const clientListSpec: ListSpec = {
  sortable: {
    id: "c.id",
    name: "c.name",
    createdAt: "c.created_at",
    updatedAt: "c.updated_at",
    projectCount: "project_count",
    contactCount: "contact_count",
  },
  filterable: { id: { column: "c.id", type: "int" } },
  searchColumn: "c.name",
  defaultSort: [{ column: "c.id", order: "asc" }],
};

const projectCount = (db: Db) =>
  db("projects").count("*").where("projects.client_id", db.ref("c.id")).as("project_count");
const contactCount = (db: Db) =>
  db("contacts").count("*").where("contacts.client_id", db.ref("c.id")).as("contact_count");

function toClient(row: ClientRow): Client {
  return {
    id: row.id,
    name: row.name,
    createdAt: toIso(row.created_at)!,
    updatedAt: toIso(row.updated_at)!,
    projectCount: Number(row.project_count),
    contactCount: Number(row.contact_count),
  };
}

function selectClients(db: Db): Knex.QueryBuilder {
  return db("clients as c").select(
    "c.id",
    "c.name",
    "c.created_at",
    "c.updated_at",
    projectCount(db),
    contactCount(db),
  );
}

export async function listClients(db: Db, list: ListQuery): Promise<{ rows: Client[]; total: number }> {
  const { rows, total } = await listWithAggregates<ClientRow>(db, list, clientListSpec, {
    table: () => db("clients as c"),
    base: () => db("clients as c"),
    select: () => selectClients(db),
    idColumn: "c.id",
    aggregates: { project_count: () => projectCount(db), contact_count: () => contactCount(db) },
  });
  return { rows: rows.map(toClient), total };
}

export async function findClient(db: Db, id: number): Promise<Client | undefined> {
  const row: ClientRow | undefined = await selectClients(db).where("c.id", id).first();
  return row && toClient(row);
}

export async function clientExists(db: Db, id: number): Promise<boolean> {
  return Boolean(await db("clients").where({ id }).first("id"));
}

export async function insertClient(db: Db, values: { name: string; now: string }): Promise<number> {
  const [row] = await db("clients").insert({ name: values.name, created_at: values.now, updated_at: values.now }, [
    "id",
  ]);
  return typeof row === "object" ? row.id : row;
}

export async function updateClient(db: Db, id: number, values: { name?: string; now: string }): Promise<boolean> {
  const changed = await db("clients")
    .where({ id })
    .update({ ...(values.name !== undefined ? { name: values.name } : {}), updated_at: values.now });
  return changed > 0;
}

/**
 * Deletes a client; the foreign keys delete its contacts and detach its projects.
 * Answers the ids of both, read in the same transaction, so they can be announced.
 */
export async function deleteClient(
  db: Db,
  id: number,
): Promise<{ contactIds: number[]; projectIds: number[] } | undefined> {
  return db.transaction(async (trx) => {
    if (!(await clientExists(trx, id))) return undefined;
    const contactIds = (await trx("contacts").where({ client_id: id }).pluck("id")) as number[];
    const projectIds = (await trx("projects").where({ client_id: id }).pluck("id")) as number[];
    await trx("clients").where({ id }).delete();
    return { contactIds, projectIds };
  });
}
