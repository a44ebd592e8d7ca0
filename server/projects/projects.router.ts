import type { Router } from "express";
import type { AppContext } from "../context";
import { crudRouter } from "../http/crud-router";
import { createProjectSchema, updateProjectSchema } from "./projects.schema";
import * as service from "./projects.service";

/** /api/projects */
export function projectsRouter(ctx: AppContext): Router {
  return crudRouter(ctx, {
    listSpec: service.projectListSpec,
    createSchema: createProjectSchema,
    updateSchema: updateProjectSchema,
    list: service.listProjects,
    get: service.getProject,
    create: service.createProject,
    update: service.updateProject,
    remove: service.deleteProject,
  });
}
