import crypto from "node:crypto";
import type { Request } from "express";
import type { AppContext } from "../context";
import { inBackground } from "../activity/activity.service";
import { recordWebhookEvent } from "./outbox";

/**
 * A visitor, as far as a gallery's views go: its address and browser, hashed (the receiver never
 * gets the address). Views and downloads are counted outside any transaction, so their events are
 * written right after the count; neither ever fails the client's request.
 */
const visitorOf = (req: Request) =>
  crypto
    .createHash("sha256")
    .update(`${req.ip ?? ""}|${req.headers["user-agent"] ?? ""}`)
    .digest("hex")
    .slice(0, 16);

/** `delivery.viewed`, once per visitor, project and UTC day. */
export function noteDeliveryViewed(ctx: AppContext, req: Request, projectId: number): void {
  const viewedAt = new Date().toISOString();
  const visitor = visitorOf(req);
  const day = viewedAt.slice(0, 10);
  void inBackground(ctx, "a delivery.viewed webhook", () =>
    recordWebhookEvent(
      ctx.db,
      "delivery.viewed",
      { projectId, visitor, viewedAt },
      { dedupeKey: `delivery.viewed:${projectId}:${visitor}:${day}` },
    ),
  );
}

/** `delivery.downloaded`: a whole ZIP was handed to a downloader. */
export function noteDeliveryDownloaded(ctx: AppContext, projectId: number, size: "original" | "web"): void {
  const downloadedAt = new Date().toISOString();
  void inBackground(ctx, "a delivery.downloaded webhook", () =>
    recordWebhookEvent(ctx.db, "delivery.downloaded", { projectId, size, downloadedAt }),
  );
}
