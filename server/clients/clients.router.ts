import { Router, type Request, type Response } from "express";
import type { AppContext } from "../context";
import { parseListQuery } from "../http/list-query";
import { parseBody, parseId } from "../http/validate";
import { clientListSpec } from "./clients.repository";
import { createClientSchema, updateClientSchema } from "./clients.schema";
import * as service from "./clients.service";

/** /api/clients */
export function clientsRouter(ctx: AppContext): Router {
  const router = Router();

  router.get("/", async (req, res) => {
    const { rows, total } = await service.listClients(ctx, parseListQuery(req.query, clientListSpec));
    res.set("X-Total-Count", String(total)).json(rows);
  });

  router.get("/:id", async (req, res) => {
    res.json(await service.getClient(ctx, parseId(req.params.id)));
  });

  router.post("/", async (req, res) => {
    res.status(201).json(await service.createClient(ctx, parseBody(createClientSchema, req.body)));
  });

  const update = async (req: Request, res: Response) => {
    const id = parseId(req.params.id);
    res.json(await service.updateClient(ctx, id, parseBody(updateClientSchema, req.body)));
  };
  router.put("/:id", update);
  router.patch("/:id", update);

  router.delete("/:id", async (req, res) => {
    await service.deleteClient(ctx, parseId(req.params.id));
    res.status(204).end();
  });

  return router;
}
