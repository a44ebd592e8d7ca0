import { Router, type Request, type Response } from "express";
import type { AppContext } from "../context";
import { parseListQuery } from "../http/list-query";
import { parseBody, parseId } from "../http/validate";
import { contactListSpec } from "./contacts.repository";
import { createContactSchema, updateContactSchema } from "./contacts.schema";
import * as service from "./contacts.service";

/** /api/contacts */
export function contactsRouter(ctx: AppContext): Router {
  const router = Router();

  router.get("/", async (req, res) => {
    const { rows, total } = await service.listContacts(ctx, parseListQuery(req.query, contactListSpec));
    res.set("X-Total-Count", String(total)).json(rows);
  });

  router.get("/:id", async (req, res) => {
    res.json(await service.getContact(ctx, parseId(req.params.id)));
  });

  router.post("/", async (req, res) => {
    res.status(201).json(await service.createContact(ctx, parseBody(createContactSchema, req.body)));
  });

  const update = async (req: Request, res: Response) => {
    const id = parseId(req.params.id);
    res.json(await service.updateContact(ctx, id, parseBody(updateContactSchema, req.body)));
  };
  router.put("/:id", update);
  router.patch("/:id", update);

  router.delete("/:id", async (req, res) => {
    await service.deleteContact(ctx, parseId(req.params.id));
    res.status(204).end();
  });

  return router;
}
