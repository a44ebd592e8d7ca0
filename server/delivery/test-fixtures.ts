/** Arrangements for the delivery tests: a project published through the API, with real files. */
import fs from "node:fs";
import path from "node:path";
import request from "supertest";
import { expect } from "vitest";
import type { TestApp, TestUser } from "../test/harness";
import { insertProjectRow } from "../test/rows";
import { addPhoto, projectRow, recordPublishEvents } from "../publish/test-fixtures";
import { recordingsSettled } from "../activity/activity.service";
import { until } from "../test/wait";
import { getBinary } from "../test/binary-body";

export interface PublishedDelivery {
  id: number;
  token: string;
  page: string;
  zipUrl: string;
  /** The ZIP's file on disk (`npm test`); its key in the published store is `zipKey`. */
  zipFile: string;
  zipKey: string;
  photos: Buffer[];
}

export async function publishDelivery(
  t: TestApp,
  staff: TestUser,
  opts: { name?: string; clientId?: number | null; photoNames?: string[]; side?: number } = {},
): Promise<PublishedDelivery> {
  const id = await insertProjectRow(t.ctx, { name: opts.name ?? "Wedding", clientId: opts.clientId ?? null });
  const photos: Buffer[] = [];
  for (const name of opts.photoNames ?? ["one.jpg", "two.jpg", "three.jpg"])
    photos.push((await addPhoto(t.ctx, id, name, opts.side ?? 64)).bytes);
  const events = recordPublishEvents(t.ctx, id);
  expect((await request(t.app).post(`/api/projects/${id}/publish`).set(staff.auth)).status).toBe(202);
  await events.next("publish_completed");
  events.stop();
  return locate(t, id, photos);
}

/** Where the project's delivery is now (after a regenerate, say). */
export async function locate(t: TestApp, id: number, photos: Buffer[] = []): Promise<PublishedDelivery> {
  const row = await projectRow(t.ctx, id);
  const base = path.basename(row.published_zip_path);
  const token = base.replace(/\.zip$/, "");
  return {
    id,
    token,
    page: `/d/${token}`,
    zipUrl: `/published/${base}`,
    zipFile: path.join(t.ctx.config.publishedDir, base),
    zipKey: base,
    photos,
  };
}

/** The `name=value` pairs of a response's Set-Cookie headers, ready for a Cookie header. */
export function cookiesOf(res: request.Response): string {
  const set = res.headers["set-cookie"] as unknown as string[] | undefined;
  return (set ?? [])
    .map((c) => c.split(";")[0])
    .filter((v, i, all) => all.indexOf(v) === i)
    .join("; ");
}

export const readFile = (file: string) => fs.readFileSync(file);

/** The downloads counted for a project's link. */
export const downloadsOf = async (t: TestApp, projectId: number) =>
  Number((await t.ctx.db("projects").where({ id: projectId }).first("delivery_downloads")).delivery_downloads);

/**
 * A full download of a delivery's ZIP (with a `cookie` header, if given), returned once the server
 * has counted it and recorded it: it counts a download when the response closes, a moment after the
 * client has the last byte.
 */
export async function downloadZip(t: TestApp, delivery: { id: number; page: string }, cookie?: string) {
  const before = await downloadsOf(t, delivery.id);
  await getBinary(t.app, `${delivery.page}/all.zip`, cookie ? { Cookie: cookie } : {}).expect(200);
  await until(
    () => downloadsOf(t, delivery.id),
    (n) => n > before,
  );
  await recordingsSettled(t.ctx);
}
