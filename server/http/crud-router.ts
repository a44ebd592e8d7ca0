import { Router, type Request, type Response } from "express";
import type { z } from "zod";
import type { AppContext } from "../context";
import { sqliteWriteCount } from "../db/dialect";
import { currentUser } from "./authenticate";
import { parseListQuery, type ListQuery, type ListSpec } from "./list-query";
import { PageCache, encoded, sendPage, type ListedPage } from "./page-cache";
import { answerWrite, editOf, sendVersioned, type Edit, type VersionedRecord } from "./record-version";
import { parseBody, parseId } from "./validate";

/** What a plain resource (clients, contacts, projects) provides for the five REST calls. */
export interface CrudResource<Create extends z.ZodType, Update extends z.ZodType> {
  listSpec: ListSpec;
  createSchema: Create;
  updateSchema: Update;
  /** A page as it is sent: its JSON body and X-Total-Count. */
  list(ctx: AppContext, list: ListQuery): Promise<ListedPage>;
  /** The record as GET answers it (an object, or its JSON already as bytes) and its version. */
  get(ctx: AppContext, id: number): Promise<VersionedRecord>;
  create(ctx: AppContext, input: z.infer<Create>, by: string): Promise<VersionedRecord>;
  /** Throws StaleRecordError (record-version.ts) when the edit's If-Match names another version. */
  update(ctx: AppContext, id: number, input: z.infer<Update>, edit: Edit): Promise<VersionedRecord>;
  remove(ctx: AppContext, id: number): Promise<void>;
}

/**
 * GET / (simple-rest list parameters, X-Total-Count), GET /:id, POST /, PUT and PATCH /:id
 * (both partial: the spec sends PUT, simple-rest sends PATCH), DELETE /:id (204). A record's
 * answers carry its ETag; PUT and PATCH honour If-Match (412 with the current record).
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
    sendVersioned(res, await resource.get(ctx, parseId(req.params.id)));
  });

  router.post("/", async (req, res) => {
    const input = parseBody(resource.createSchema, req.body);
    sendVersioned(res, await resource.create(ctx, input, currentUser(req).uid), 201);
  });

  const update = async (req: Request, res: Response) => {
    const id = parseId(req.params.id);
    const edit = editOf(req, currentUser(req).uid);
    const input = parseBody(resource.updateSchema, req.body);
    await answerWrite(
      res,
      () => resource.update(ctx, id, input, edit),
      () => resource.get(ctx, id),
    );
  };
  router.put("/:id", update);
  router.patch("/:id", update);

  router.delete("/:id", async (req, res) => {
    await resource.remove(ctx, parseId(req.params.id));
    res.status(204).end();
  });

  return router;
}
