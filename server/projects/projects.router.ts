import { Router, type Request, type Response } from "express";
import type { AppContext } from "../context";
import { parseListQuery } from "../http/list-query";
import { parseBody, parseId } from "../http/validate";
import { projectListSpec } from "./projects.repository";
import { createProjectSchema, updateProjectSchema } from "./projects.schema";
import * as service from "./projects.service";

/** /api/projects */
export function projectsRouter(ctx: AppContext): Router {
  const router = Router();

  router.get("/", async (req, res) => {
    const { rows, total } = await service.listProjects(ctx, parseListQuery(req.query, projectListSpec));
    res.set("X-Total-Count", String(total)).json(rows);
  });

  router.get("/:id", async (req, res) => {
    res.json(await service.getProject(ctx, parseId(req.params.id)));
  });

  router.post("/", async (req, res) => {
    res.status(201).json(await service.createProject(ctx, parseBody(createProjectSchema, req.body)));
  });

  const update = async (req: Request, res: Response) => {
    const id = parseId(req.params.id);
    res.json(await service.updateProject(ctx, id, parseBody(updateProjectSchema, req.body)));
  };
  router.put("/:id", update);
  router.patch("/:id", update);

  router.delete("/:id", async (req, res) => {
    await service.deleteProject(ctx, parseId(req.params.id));
    res.status(204).end();
  });

  return router;
}
