import type { Db } from "../db/database";
import { ConflictError, NotFoundError } from "../http/errors";
import { findProjectState, LOCKED_STATUSES } from "./projects.repository";

export const PROJECT_NOT_FOUND = "Project not found";
export const PROJECT_IS_PUBLISHED = "Project is published";

/** While published or publishing, a project and its attachments are frozen: the ZIP must match them. */
export const isLocked = (status: string | undefined): boolean => LOCKED_STATUSES.some((locked) => locked === status);

/** Refuses a change to a missing, published or publishing project (in a transaction, pass it). */
export async function assertProjectEditable(db: Db, projectId: number): Promise<void> {
  const state = await findProjectState(db, projectId);
  if (!state) throw new NotFoundError(PROJECT_NOT_FOUND);
  if (isLocked(state.publish_status)) throw new ConflictError(PROJECT_IS_PUBLISHED);
}
