import { Router, type Request, type Response } from "express";
import type { z } from "zod";
import type { AppContext } from "../context";
import { sqliteWriteCount } from "../db/dialect";
import { parseListQuery, type ListQuery, type ListSpec } from "./list-query";
import { PageCache, encoded, sendJson, sendPage, type ListedPage } from "./page-cache";
import { parseBody, parseId } from "./validate";

/** What a plain resource (clients, contacts, projects) provides for the five REST calls. */
export interface CrudResource<Create extends z.ZodType, Update extends z.ZodType> {
  listSpec: ListSpec;
  createSchema: Create;
  updateSchema: Update;
  /** A page as it is sent: its JSON body and X-Total-Count. */
  list(ctx: AppContext, list: ListQuery): Promise<ListedPage>;
  /** The record, or its JSON already as bytes. */
  get(ctx: AppContext, id: number): Promise<unknown>;
  create(ctx: AppContext, input: z.infer<Create>): Promise<unknown>;
  update(ctx: AppContext, id: number, input: z.infer<Update>): Promise<unknown>;
  remove(ctx: AppContext, id: number): Promise<void>;
}

/**
 * GET / (simple-rest list parameters, X-Total-Count), GET /:id, POST /, PUT and PATCH /:id
 * (both partial: the spec sends PUT, simple-rest sends PATCH), DELETE /:id (204).
 */
export function crudRouter<Create extends z.ZodType, Update extends z.ZodType>(
  ctx: AppContext,
  resource: CrudResource<Create, Update>,
): Router {
  const router = Router();
  // These lists are the same for every signed-in user and do not change with the clock.
  const pages = new PageCache(() => sqliteWriteCount(ctx.db));

  router.get("/", async (req, res) => {
    const list = parseListQuery(req.query, resource.listSpec);
    sendPage(res, await pages.get(req.url, () => encoded(resource.list(ctx, list))));
  });

  router.get("/:id", async (req, res) => {
    const record = await resource.get(ctx, parseId(req.params.id));
    if (Buffer.isBuffer(record)) sendJson(res, record);
    else res.json(record);
  });

  router.post("/", async (req, res) => {
    res.status(201).json(await resource.create(ctx, parseBody(resource.createSchema, req.body)));
  });

  const update = async (req: Request, res: Response) => {
    const id = parseId(req.params.id);
    res.json(await resource.update(ctx, id, parseBody(resource.updateSchema, req.body)));
  };
  router.put("/:id", update);
  router.patch("/:id", update);

  router.delete("/:id", async (req, res) => {
    await resource.remove(ctx, parseId(req.params.id));
    res.status(204).end();
  });

  return router;
}
