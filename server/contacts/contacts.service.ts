import type { AppContext } from "../context";
import { nowIso } from "../db/database";
import { NotFoundError } from "../http/errors";
import type { ListQuery } from "../http/list-query";
import { StaleRecordError, versionedOf, type Edit } from "../http/record-version";
import { requireClient } from "../clients/clients.service";
import type { CreateContactInput, UpdateContactInput } from "./contacts.schema";
import * as repo from "./contacts.repository";

/** What the list endpoint may filter and sort by (the router parses the query with it). */
export { contactListSpec } from "./contacts.repository";

const CONTACT_NOT_FOUND = "Contact not found";

export async function listContacts(ctx: AppContext, list: ListQuery) {
  const { rows, total } = await repo.listContacts(ctx.reads, list);
  return { body: JSON.stringify(rows), total };
}

/** A client's contactCount changes with its contacts: lists showing it refetch. */
function announceContactCounts(ctx: AppContext, ...clientIds: number[]) {
  ctx.events.resourceChanged({ resource: "clients", type: "updated", ids: [...new Set(clientIds)] });
}

export async function getContact(ctx: AppContext, id: number) {
  const contact = await repo.findContact(ctx.db, id);
  if (!contact) throw new NotFoundError(CONTACT_NOT_FOUND);
  return versionedOf(contact);
}

export async function createContact(ctx: AppContext, input: CreateContactInput, by: string) {
  const values = {
    clientId: input.clientId,
    name: input.name,
    email: input.email ?? null,
    phoneNumber: input.phoneNumber ?? null,
  };
  // The check and the write share a transaction so a client deleted in between cannot break the foreign key.
  const id = await ctx.db.transaction(async (trx) => {
    await requireClient(trx, input.clientId);
    return repo.insertContact(trx, values, nowIso(), by);
  });
  ctx.events.resourceChanged({ resource: "contacts", type: "created", ids: [id] });
  announceContactCounts(ctx, input.clientId);
  return versionedOf((await repo.findContact(ctx.db, id))!);
}

/** Changes the fields given; a stale If-Match changes nothing (StaleRecordError). */
export async function updateContact(ctx: AppContext, id: number, input: UpdateContactInput, edit: Edit) {
  const previousClientId = await ctx.db.transaction(async (trx) => {
    const previous = await repo.findContact(trx, id);
    if (!previous) throw new NotFoundError(CONTACT_NOT_FOUND);
    if (input.clientId !== undefined) await requireClient(trx, input.clientId);
    if (!(await repo.updateContact(trx, id, input, nowIso(), edit))) throw new StaleRecordError();
    return previous.clientId;
  });
  ctx.events.resourceChanged({ resource: "contacts", type: "updated", ids: [id] });
  if (input.clientId !== undefined && input.clientId !== previousClientId) {
    announceContactCounts(ctx, previousClientId, input.clientId);
  }
  return versionedOf((await repo.findContact(ctx.db, id))!);
}

export async function deleteContact(ctx: AppContext, id: number) {
  const contact = await repo.findContact(ctx.db, id);
  if (!contact || !(await repo.deleteContact(ctx.db, id))) throw new NotFoundError(CONTACT_NOT_FOUND);
  ctx.events.resourceChanged({ resource: "contacts", type: "deleted", ids: [id] });
  announceContactCounts(ctx, contact.clientId);
}
