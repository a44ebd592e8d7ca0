import { Router } from "express";
import type { AppContext } from "../context";
import { currentUser } from "../http/authenticate";
import { parseBody, parseId } from "../http/validate";
import { apiTokenRequestSchema } from "./api-tokens.schema";
import { createApiToken, everyApiToken, myApiTokens, removeApiToken } from "./api-tokens.service";

/** /api/users/me/tokens: the signed-in user's own API tokens. */
export function myApiTokensRouter(ctx: AppContext): Router {
  const router = Router();
  router.get("/", async (req, res) => {
    const tokens = await myApiTokens(ctx, currentUser(req).uid);
    res.set("X-Total-Count", String(tokens.length)).json(tokens);
  });
  router.post("/", async (req, res) => {
    const input = parseBody(apiTokenRequestSchema, req.body);
    res.status(201).json(await createApiToken(ctx, currentUser(req), input));
  });
  router.delete("/:id", async (req, res) => {
    await removeApiToken(ctx, parseId(req.params.id), currentUser(req).uid);
    res.status(204).end();
  });
  return router;
}

/** /api/tokens (admins): everyone's API tokens, any of which an admin may delete. */
export function apiTokensRouter(ctx: AppContext): Router {
  const router = Router();
  router.get("/", async (_req, res) => {
    const tokens = await everyApiToken(ctx);
    res.set("X-Total-Count", String(tokens.length)).json(tokens);
  });
  router.delete("/:id", async (req, res) => {
    await removeApiToken(ctx, parseId(req.params.id));
    res.status(204).end();
  });
  return router;
}
