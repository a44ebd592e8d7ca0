import type { AppContext } from "../context";
import { ConflictError, NotFoundError, ValidationError } from "../http/errors";
import { removePublishedZips } from "../storage/published-zips";
import type { Project } from "../../api/types";
import { downloadUrlFor, findProject } from "../projects/projects.repository";
import { claimForPublishing, findPublishState, resetToDraft } from "./publish.repository";
import { newBuildId, publishQueue, runPublishBuild } from "./publish-job";
import { leaseUntil } from "./publish-lease";

function projectsChanged(ctx: AppContext, id: number) {
  ctx.events.resourceChanged({ resource: "projects", type: "updated", ids: [id] });
}

async function projectOrNotFound(ctx: AppContext, id: number): Promise<Project> {
  const project = await findProject(ctx.db, id);
  if (!project) throw new NotFoundError("Project not found");
  return project;
}

/** The claim's outcome, whatever the build has done since (it may already have ended). */
function asJustClaimed(project: Project): Project {
  return {
    ...project,
    publishStatus: "publishing",
    publishedAt: null,
    publishedZipPath: null,
    downloadUrl: null,
    deliveryUrl: null,
    publishError: null,
  };
}

/**
 * Marks the project `publishing` and queues its build; answers the project as the claim left it.
 * `notifyRecipients`: once published, the recipients who already have the link get a short mail.
 */
export async function publishProject(
  ctx: AppContext,
  id: number,
  options: { notifyRecipients?: boolean } = {},
): Promise<Project> {
  const build = { projectId: id, buildId: newBuildId(), notifyRecipients: options.notifyRecipients === true };
  if (!(await claimForPublishing(ctx.db, id, build.buildId, leaseUntil(ctx)))) {
    const state = await findPublishState(ctx.db, id);
    if (!state) throw new NotFoundError("Project not found");
    if (state.publishStatus === "published" || state.publishStatus === "publishing") {
      throw new ConflictError("Project is already published");
    }
    throw new ValidationError("Project has no attachments");
  }
  // Queued in the same step as the claim: an unpublish arriving at any later moment finds the
  // build in the queue and cancels it.
  publishQueue(ctx).enqueue(build, (signal) => runPublishBuild(ctx, build, signal));
  projectsChanged(ctx, id);
  return asJustClaimed(await projectOrNotFound(ctx, id));
}

/** Stops every build, e.g. before shutting down; interrupted projects are recovered at the next start. */
export async function cancelAllPublishes(ctx: AppContext): Promise<void> {
  await publishQueue(ctx).cancelAll();
}

/**
 * Back to draft from any state, deleting the ZIP in the same step, then cancels the build the
 * row named. Draft first: from then on that build can record nothing, and a publish claimed after
 * the reset has a build of its own that this call leaves alone. The link stays the project's: it
 * shows "being updated" until the next publish, which serves under it again.
 */
export async function unpublishProject(ctx: AppContext, id: number): Promise<Project> {
  const reset = await resetToDraft(ctx.db, id, (zipPath) => removePublishedZips(ctx.config, zipPath));
  if (!reset) throw new NotFoundError("Project not found");
  if (reset.changed) {
    if (reset.buildId) await publishQueue(ctx).cancelBuild(reset.buildId);
    projectsChanged(ctx, id);
  }
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
