import type { Db } from "../db/database";
import type { Client } from "../../api/types";
import type { ListQuery, ListSpec } from "../http/list-query";
import { listPageBody } from "../db/list-pages";
import { jsonSql, oncePerDialect } from "../db/json-select";
import { readRows } from "../db/prepared-reads";
import { updatedByJson } from "../db/edited-by";
import { editColumns, whereVersion, type Edit } from "../http/record-version";

export const clientListSpec: ListSpec = {
  sortable: {
    id: "c.id",
    name: "c.name",
    createdAt: "c.created_at",
    updatedAt: "c.updated_at",
    projectCount: "c.project_count",
    contactCount: "c.contact_count",
  },
  filterable: { id: { column: "c.id", type: "int" } },
  searchColumn: "c.name",
  searchIndex: { table: "clients_search", idColumn: "c.id" },
  defaultSort: [{ column: "c.id", order: "asc" }],
};

/** A client as the API shows it, as JSON text built by the database (see server/db/json-select.ts). */
const clientColumn = oncePerDialect((db: Db): string => {
  const json = jsonSql(db);
  return json.column(
    {
      id: json.number("c.id"),
      name: "c.name",
      createdAt: json.iso("c.created_at"),
      updatedAt: json.iso("c.updated_at"),
      // Both counts are kept on the row by triggers (migration add_clients_project_and_contact_counts).
      projectCount: json.number("c.project_count"),
      contactCount: json.number("c.contact_count"),
      version: json.number("c.version"),
      updatedBy: updatedByJson(json, "c.updated_by"),
    },
    "client",
  );
});

/** A page of the list as its JSON body, and the total. */
export function listClients(db: Db, list: ListQuery): Promise<{ body: Buffer | string; total: number }> {
  return listPageBody(
    db,
    list,
    clientListSpec,
    {
      table: "clients",
      from: "clients c",
      columns: clientColumn(db),
      idColumn: "c.id",
    },
    "client",
  );
}

/** A client as the API writes it, its JSON text as the database built it, and its version. */
export async function findClientText(db: Db, id: number): Promise<{ text: string; version: number } | undefined> {
  const [row] = await readRows<{ client: string; version: number | string }>(db, {
    text: `SELECT ${clientColumn(db)}, c.version FROM clients c WHERE c.id = ?`,
    values: [id],
  });
  return row && { text: row.client, version: Number(row.version) };
}

export async function findClient(db: Db, id: number): Promise<Client | undefined> {
  const found = await findClientText(db, id);
  return found === undefined ? undefined : (JSON.parse(found.text) as Client);
}

export async function clientExists(db: Db, id: number): Promise<boolean> {
  return Boolean(await db("clients").where({ id }).first("id"));
}

export async function insertClient(db: Db, values: { name: string; now: string; by: string }): Promise<number> {
  const [row] = await db("clients").insert(
    { name: values.name, created_at: values.now, updated_at: values.now, updated_by: values.by },
    ["id"],
  );
  return typeof row === "object" ? row.id : row;
}

/** Changes the fields given when the version is one the edit may apply to; false when nothing matched. */
export async function updateClient(
  db: Db,
  id: number,
  values: { name?: string; now: string },
  edit: Edit,
): Promise<boolean> {
  const changed = await whereVersion(db("clients").where({ id }), edit.condition).update({
    ...(values.name !== undefined ? { name: values.name } : {}),
    updated_at: values.now,
    ...editColumns(db, edit),
  });
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
