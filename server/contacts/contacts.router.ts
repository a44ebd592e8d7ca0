import type { Router } from "express";
import type { AppContext } from "../context";
import { crudRouter } from "../http/crud-router";
import { createContactSchema, updateContactSchema } from "./contacts.schema";
import * as service from "./contacts.service";

/** /api/contacts */
export function contactsRouter(ctx: AppContext): Router {
  return crudRouter(ctx, {
    listSpec: service.contactListSpec,
    createSchema: createContactSchema,
    updateSchema: updateContactSchema,
    list: service.listContacts,
    get: service.getContact,
    create: service.createContact,
    update: service.updateContact,
    remove: service.deleteContact,
  });
}
