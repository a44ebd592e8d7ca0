import { Router, type Request, type Response } from "express";
import type { AppContext } from "../context";
import { currentUser } from "../http/authenticate";
import { NotFoundError } from "../http/errors";
import { parseListQuery } from "../http/list-query";
import { parseBody } from "../http/validate";
import { answerWrite, editOf, sendVersioned, versionedOf } from "../http/record-version";
import { trustedOrigin } from "../http/request-origin";
import { createMailer } from "../mail/mailer";
import { accessFilterSchema, userChangeSchema } from "./users.schema";
import { changeUser, getUser, listUsers, usersListSpec } from "./users.service";

function parseUid(raw: unknown): string {
  const uid = String(raw ?? "");
  if (!/^[\w-]{1,40}$/.test(uid)) throw new NotFoundError("User not found");
  return uid;
}

/** /api/users: the admin-only approval resource. */
export function usersRouter(ctx: AppContext): Router {
  const router = Router();
  const mailer = createMailer(ctx.config.mail, ctx.logger);

  router.get("/", async (req, res) => {
    const { access, ...query } = req.query as Record<string, unknown>;
    const list = parseListQuery(query, usersListSpec);
    const { rows, total } = await listUsers(ctx, list, parseBody(accessFilterSchema, { access }));
    res.set("X-Total-Count", String(total)).json(rows);
  });

  router.get("/:uid", async (req, res) => {
    sendVersioned(res, versionedOf(await getUser(ctx, parseUid(req.params.uid))));
  });

  const update = async (req: Request, res: Response) => {
    const uid = parseUid(req.params.uid);
    const actor = currentUser(req);
    const edit = editOf(req, actor.uid);
    const change = parseBody(userChangeSchema, req.body);
    const mail = { mailer, origin: trustedOrigin(req, ctx.config) };
    await answerWrite(
      res,
      async () => versionedOf(await changeUser(ctx, actor, uid, change, mail, edit)),
      async () => versionedOf(await getUser(ctx, uid)),
    );
  };
  router.put("/:uid", update);
  router.patch("/:uid", update);

  return router;
}
