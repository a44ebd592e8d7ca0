import type { AppContext } from "../context";
import { nowIso, type Db } from "../db/database";
import { NotFoundError, ValidationError } from "../http/errors";
import type { ListQuery } from "../http/list-query";
import { withFields } from "../http/page-cache";
import { StaleRecordError, versionedOf, type Edit, type VersionedRecord } from "../http/record-version";
import { contactsOfClient } from "../contacts/contacts.repository";
import { projectTextsOfClient } from "../projects/projects.repository";
import type { CreateClientInput, UpdateClientInput } from "./clients.schema";
import * as repo from "./clients.repository";
import { recordWebhookEvent } from "../webhooks/outbox";

/** What the list endpoint may filter and sort by (the router parses the query with it). */
export { clientListSpec } from "./clients.repository";

export const CLIENT_NOT_FOUND = "Client not found";

/** A client a contact or project refers to must exist: a 400 on the clientId field otherwise. No client is fine. */
export async function requireClient(db: Db, clientId: number | null | undefined): Promise<void> {
  if (clientId == null) return;
  if (!(await repo.clientExists(db, clientId)))
    throw new ValidationError(CLIENT_NOT_FOUND, { clientId: CLIENT_NOT_FOUND });
}

export function listClients(ctx: AppContext, list: ListQuery) {
  return repo.listClients(ctx.reads, list);
}

/**
 * A client's record as JSON bytes: its fields, its contacts, and its projects as the database
 * wrote them (a client with 50 projects was 28 kB of JSON parsed and written again).
 */
export async function getClient(ctx: AppContext, id: number): Promise<VersionedRecord> {
  const [client, contacts, projects] = await Promise.all([
    repo.findClientText(ctx.db, id),
    contactsOfClient(ctx.db, id),
    projectTextsOfClient(ctx.db, id),
  ]);
  if (client === undefined) throw new NotFoundError(CLIENT_NOT_FOUND);
  const body = withFields(client.text, { contacts: JSON.stringify(contacts), projects: `[${projects.join(",")}]` });
  return { body, version: client.version };
}

export async function createClient(ctx: AppContext, input: CreateClientInput, by: string) {
  const id = await repo.insertClient(ctx.db, { name: input.name, now: nowIso(), by });
  // No transaction here: the event is written right after the insert.
  await recordWebhookEvent(ctx.db, "client.created", { clientId: id });
  ctx.events.resourceChanged({ resource: "clients", type: "created", ids: [id] });
  return versionedOf((await repo.findClient(ctx.db, id))!);
}

/** Changes the fields given; a stale If-Match changes nothing (StaleRecordError). */
export async function updateClient(ctx: AppContext, id: number, input: UpdateClientInput, edit: Edit) {
  if (!(await repo.updateClient(ctx.db, id, { name: input.name, now: nowIso() }, edit))) {
    if (await repo.clientExists(ctx.db, id)) throw new StaleRecordError();
    throw new NotFoundError(CLIENT_NOT_FOUND);
  }
  ctx.events.resourceChanged({ resource: "clients", type: "updated", ids: [id] });
  return versionedOf((await repo.findClient(ctx.db, id))!);
}

export async function deleteClient(ctx: AppContext, id: number) {
  const removed = await repo.deleteClient(ctx.db, id);
  if (!removed) throw new NotFoundError(CLIENT_NOT_FOUND);
  ctx.events.resourceChanged({ resource: "clients", type: "deleted", ids: [id] });
  ctx.events.resourceChanged({ resource: "contacts", type: "deleted", ids: removed.contactIds });
  ctx.events.resourceChanged({ resource: "projects", type: "updated", ids: removed.projectIds });
}
