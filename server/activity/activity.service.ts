import type { AppContext } from "../context";
import { nowIso } from "../db/database";
import { NotFoundError } from "../http/errors";
import type { DeliveryActivity, DeliveryActivityType, User } from "../../api/types";
import { countInGroup, insertActivity, listActivity, projectExists, type ActivityDetails } from "./activity.repository";
import { workUnderWay } from "../work-under-way";

export type { ActivityDetails };

/** How the timeline names a staff member. */
export const staffLabel = (user: Pick<User, "displayName" | "email">) => user.displayName?.trim() || user.email;

/** How the timeline names a recipient. */
export const recipientLabel = (r: { name: string | null; email: string }) =>
  r.name ? `${r.name} <${r.email}>` : r.email;

/**
 * Open project pages refetch on a `projects` change of that project, which is also what the
 * delivery counters announce: the timeline rides on the same announcement.
 */
export function announceActivity(ctx: AppContext, projectId: number): void {
  ctx.events.resourceChanged({ resource: "projects", type: "updated", ids: [projectId] });
}

/** `announce: false` where the caller announces the project's change itself once this is recorded. */
interface Announcing {
  announce?: boolean;
}

export async function recordActivity(
  ctx: AppContext,
  projectId: number,
  type: DeliveryActivityType,
  details: ActivityDetails = {},
  { announce = true }: Announcing = {},
): Promise<void> {
  await insertActivity(ctx.db, projectId, type, details, nowIso());
  if (announce) announceActivity(ctx, projectId);
}

/** One more in today's row of this type (UTC day): page views and passcode failures are counted per day. */
export async function countActivityToday(
  ctx: AppContext,
  projectId: number,
  type: "views" | "passcode_failures",
  { announce = true }: Announcing = {},
): Promise<void> {
  const at = nowIso();
  await countInGroup(ctx.db, projectId, type, `${type}:${at.slice(0, 10)}`, at);
  if (announce) announceActivity(ctx, projectId);
}

const pending = workUnderWay<AppContext>();

/**
 * Runs a recording beside the client's request: a failure to record is logged and never fails
 * what the client asked for. The answer resolves (never rejects) once it has ended.
 */
export function inBackground(ctx: AppContext, what: string, work: () => Promise<unknown>): Promise<void> {
  const done: Promise<void> = work().then(
    () => {},
    (err: unknown) => ctx.logger.warn({ err }, `could not record ${what}`),
  );
  pending.add(ctx, done);
  return done;
}

/** Resolves once every recording under way has ended (before the database closes, and in tests). */
export function recordingsSettled(ctx: AppContext): Promise<void> {
  return pending.settled(ctx);
}

export async function activityPage(
  ctx: AppContext,
  projectId: number,
  range: { offset: number; limit: number },
): Promise<{ rows: DeliveryActivity[]; total: number }> {
  if (!(await projectExists(ctx.reads, projectId))) throw new NotFoundError("Project not found");
  return listActivity(ctx.reads, projectId, range);
}
