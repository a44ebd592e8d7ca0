import type { Express } from "express";
import type { AppHandler } from "../app";

/** One route Express answers: its method and full path (Express's form, `/api/clients/:id`). */
export interface RouteEntry {
  method: string;
  path: string;
}

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
  rawPath?: string | string[];
}

/** The Express app behind createApp's handler: its request prototype knows it (express-born.ts). */
function expressAppOf(handler: AppHandler): Express {
  const request = (handler.serverOptions.IncomingMessage as unknown as { prototype: { app: Express } }).prototype;
  return request.app;
}

const join = (base: string, path: string) => (path === "/" ? base || "/" : `${base}${path}`);

function walk(stack: Layer[], base: string, into: RouteEntry[]): void {
  for (const layer of stack) {
    if (layer.route) {
      const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
      for (const path of paths)
        for (const [method, on] of Object.entries(layer.route.methods))
          if (on && method !== "_all") into.push({ method, path: join(base, path) });
    } else if (layer.handle.stack) {
      // A mounted router (app.use(path, router)); plain middleware has no stack.
      const mount = typeof layer.rawPath === "string" ? layer.rawPath : "/";
      walk(layer.handle.stack, join(base, mount === "/" ? "" : mount), into);
    }
  }
}

/** Every route of the app's route table, nested routers included. */
export function routeTable(handler: AppHandler): RouteEntry[] {
  const routes: RouteEntry[] = [];
  walk((expressAppOf(handler).router as unknown as { stack: Layer[] }).stack, "", routes);
  return routes;
}
