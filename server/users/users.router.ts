import { Router, type Request, type Response } from "express";
import type { AppContext } from "../context";
import { currentUser } from "../http/authenticate";
import { NotFoundError } from "../http/errors";
import { parseListQuery } from "../http/list-query";
import { parseBody } from "../http/validate";
import { usersListSpec } from "./users.repository";
import { userChangeSchema } from "./users.schema";
import { changeUser, getUser, listUsers } from "./users.service";

function parseUid(raw: unknown): string {
  const uid = String(raw ?? "");
  if (!/^[\w-]{1,40}$/.test(uid)) throw new NotFoundError("User not found");
  return uid;
}

/** /api/users: the admin-only approval resource. */
export function usersRouter(ctx: AppContext): Router {
  const router = Router();

  router.get("/", async (req, res) => {
    const list = parseListQuery(req.query as Record<string, unknown>, usersListSpec);
    const { rows, total } = await listUsers(ctx, list);
    res.set("X-Total-Count", String(total)).json(rows);
  });

  router.get("/:uid", async (req, res) => {
    res.json(await getUser(ctx, parseUid(req.params.uid)));
  });

  const update = async (req: Request, res: Response) => {
    const uid = parseUid(req.params.uid);
    const change = parseBody(userChangeSchema, req.body);
    res.json(await changeUser(ctx, currentUser(req), uid, change));
  };
  router.put("/:uid", update);
  router.patch("/:uid", update);

  return router;
}
