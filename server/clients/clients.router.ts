import type { Router } from "express";
import type { AppContext } from "../context";
import { crudRouter } from "../http/crud-router";
import { createClientSchema, updateClientSchema } from "./clients.schema";
import * as service from "./clients.service";

/** /api/clients */
export function clientsRouter(ctx: AppContext): Router {
  return crudRouter(ctx, {
    listSpec: service.clientListSpec,
    createSchema: createClientSchema,
    updateSchema: updateClientSchema,
    list: service.listClients,
    get: service.getClient,
    create: service.createClient,
    update: service.updateClient,
    remove: service.deleteClient,
  });
}
