import { Router } from "express";
import type { AppContext } from "../context";
import { parseListQuery, type ListSpec } from "../http/list-query";
import { parseId } from "../http/validate";
import { activityPage } from "./activity.service";

/** Always newest first: the window (`_start`, `_end`) is the only parameter. */
const ACTIVITY_LIST: ListSpec = { sortable: {}, filterable: {}, defaultSort: [] };

/** /api/projects/:id/activity (mounted at /api/projects for approved users). */
export function activityRouter(ctx: AppContext): Router {
  const router = Router();

  router.get("/:id/activity", async (req, res) => {
    const id = parseId(req.params.id);
    const { range } = parseListQuery(req.query, ACTIVITY_LIST);
    const { rows, total } = await activityPage(ctx, id, range ?? { offset: 0, limit: -1 });
    res.set("X-Total-Count", String(total)).json(rows);
  });

  return router;
}
