import { Router, type Request, type Response } from "express";
import type { AppContext } from "../context";
import { parseListQuery } from "../http/list-query";
import { sendPage } from "../http/page-cache";
import { parseBody, parseId } from "../http/validate";
import { parseDeletion, renameAttachmentSchema } from "./attachments.schema";
import * as service from "./attachments.service";
import { multipleUploads, receiveUploads, releaseUpload, singleUpload } from "./upload-receiver";
import { assertProjectEditable } from "../projects/project-rules";
import { renditionQueue } from "./renditions.service";

/** /api/attachments (bearer-authenticated). */
export function attachmentsRouter(ctx: AppContext): Router {
  const router = Router();

  // Refused before the body is read, so a file bound for a missing or published project is never written.
  const checkProject = async (req: Request, _res: Response, next: () => void) => {
    await assertProjectEditable(ctx.db, parseId(req.params.id, "project id"));
    next();
  };
  // Background renditions wait while an upload is under way, from its first byte to its answer.
  const duringUpload = (_req: Request, res: Response, next: () => void) => {
    res.once("close", renditionQueue(ctx).uploadStarted());
    next();
  };
  const receive = receiveUploads(ctx.config, ctx.logger);

  router.post("/projects/:id/upload", duringUpload, checkProject, receive, async (req, res) => {
    try {
      const [attachment] = await service.uploadAttachments(ctx, parseId(req.params.id, "project id"), [
        singleUpload(req),
      ]);
      res.status(201).json(attachment);
    } finally {
      await releaseUpload(res);
    }
  });

  router.post("/projects/:id/upload-multiple", duringUpload, checkProject, receive, async (req, res) => {
    try {
      res
        .status(201)
        .json(await service.uploadAttachments(ctx, parseId(req.params.id, "project id"), multipleUploads(req)));
    } finally {
      await releaseUpload(res);
    }
  });

  router.get("/", async (req, res) => {
    const list = parseListQuery(req.query, service.attachmentListSpec);
    sendPage(res, await service.listAttachments(ctx, list, req.query._sort !== undefined));
  });

  router.get("/:id", async (req, res) => {
    res.json(await service.getAttachment(ctx, parseId(req.params.id)));
  });

  const rename = async (req: Request, res: Response) => {
    const id = parseId(req.params.id);
    const { originalName } = parseBody(renameAttachmentSchema, req.body);
    res.json(await service.renameAttachment(ctx, id, originalName));
  };
  router.put("/:id", rename);
  router.patch("/:id", rename);

  router.delete("/:id", async (req, res) => {
    await service.deleteAttachment(ctx, parseId(req.params.id));
    res.status(204).end();
  });

  router.delete("/", async (req, res) => {
    const deletion = parseDeletion(req.body);
    if ("ids" in deletion) await service.deleteAttachments(ctx, deletion.ids);
    else await service.deleteProjectAttachments(ctx, deletion.projectId, deletion);
    res.status(204).end();
  });

  return router;
}
