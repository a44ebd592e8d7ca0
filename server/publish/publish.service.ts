import type { AppContext } from "../context";
import { ConflictError, NotFoundError, ValidationError } from "../http/errors";
import { publishedZipFile, removeQuietly } from "../storage/paths";
import { downloadUrlFor, findProject, type Project } from "../projects/projects.repository";
import { claimForPublishing, findPublishState, resetToDraft } from "./publish.repository";
import { publishQueue, runPublishBuild } from "./publish-job";

function projectsChanged(ctx: AppContext, id: number) {
  ctx.events.resourceChanged({ resource: "projects", type: "updated", ids: [id] });
}

async function projectOrNotFound(ctx: AppContext, id: number): Promise<Project> {
  const project = await findProject(ctx.db, id);
  if (!project) throw new NotFoundError("Project not found");
  return project;
}

/** Marks the project `publishing` and queues its build; answers the project as it is now. */
export async function publishProject(ctx: AppContext, id: number): Promise<Project> {
  if (!(await claimForPublishing(ctx.db, id))) {
    const state = await findPublishState(ctx.db, id);
    if (!state) throw new NotFoundError("Project not found");
    if (state.publishStatus === "published" || state.publishStatus === "publishing") {
      throw new ConflictError("Project is already published");
    }
    throw new ValidationError("Project has no attachments");
  }
  // Read before queueing, so the answer shows `publishing` even for a build that ends at once.
  const project = await projectOrNotFound(ctx, id);
  publishQueue(ctx).enqueue(id, (signal) => runPublishBuild(ctx, id, signal));
  projectsChanged(ctx, id);
  return project;
}

/**
 * Stops a queued or running build of the project and waits until its partial file is gone.
 * The project's status is the caller's business (unpublish sets draft; a delete removes the row).
 */
export async function cancelPublish(ctx: AppContext, projectId: number): Promise<void> {
  await publishQueue(ctx).cancel(projectId);
}

/** Stops every build, e.g. before shutting down; interrupted projects are recovered at the next start. */
export async function cancelAllPublishes(ctx: AppContext): Promise<void> {
  await publishQueue(ctx).cancelAll();
}

/** Back to draft from any state: cancels a build, forgets the ZIP, then deletes its file. */
export async function unpublishProject(ctx: AppContext, id: number): Promise<Project> {
  const state = await findPublishState(ctx.db, id);
  if (!state) throw new NotFoundError("Project not found");
  if (state.publishStatus === "draft") return projectOrNotFound(ctx, id);
  await cancelPublish(ctx, id);
  const reset = await resetToDraft(ctx.db, id);
  if (!reset) throw new NotFoundError("Project not found");
  if (reset.previousZipPath) await removeQuietly(publishedZipFile(ctx.config, reset.previousZipPath));
  projectsChanged(ctx, id);
  return projectOrNotFound(ctx, id);
}

/** Where the project's ZIP is served publicly. */
export async function downloadLocation(ctx: AppContext, id: number): Promise<string> {
  const state = await findPublishState(ctx.db, id);
  if (!state) throw new NotFoundError("Project not found");
  const url = downloadUrlFor(state.publishStatus, state.publishedZipPath);
  if (!url) throw new NotFoundError("Project is not published");
  return url;
}
