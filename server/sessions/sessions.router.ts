import { Router } from "express";
import type { AppContext } from "../context";
import { currentUser } from "../http/authenticate";
import { NotFoundError } from "../http/errors";
import { listSessions, signOutOtherSessions, signOutSession } from "./sessions.service";

const SESSION_ID = /^[0-9a-f-]{36}$/;

/** /api/users/me/sessions: where the user is signed in, and signing any of it out. */
export function sessionsRouter(ctx: AppContext): Router {
  const router = Router();

  router.get("/", async (req, res) => {
    res.json(await listSessions(ctx, currentUser(req).uid, req.sessionId));
  });

  router.delete("/", async (req, res) => {
    await signOutOtherSessions(ctx, currentUser(req).uid, req.sessionId);
    res.status(204).end();
  });

  router.delete("/:id", async (req, res) => {
    const id = String(req.params.id);
    if (!SESSION_ID.test(id)) throw new NotFoundError("Session not found");
    await signOutSession(ctx, currentUser(req).uid, id);
    res.status(204).end();
  });

  return router;
}
