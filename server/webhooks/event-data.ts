import type { AppContext } from "../context";
import { HttpError } from "../http/errors";
import { getClient } from "../clients/clients.service";
import { getProject } from "../projects/projects.service";
import { getUser } from "../users/users.service";
import { favouriteSelection } from "../favourites/favourites.service";
import type { EventSubject } from "./outbox";

/** A record's answer (an object, or JSON bytes as a record route sends them) as a plain value. */
const plain = (body: unknown): unknown =>
  Buffer.isBuffer(body) ? JSON.parse(body.toString("utf8")) : typeof body === "string" ? JSON.parse(body) : body;

const projectSummary = async (ctx: AppContext, id: number) => {
  const row = await ctx.db("projects").where({ id }).first("id", "name");
  return row ? { id: row.id as number, name: row.name as string } : { id };
};

/**
 * An event's `data`: the record as the API answers it (GET /api/projects/{id}, /api/clients/{id},
 * /api/users/{uid}), read when the event is first sent; for delivery events the project and the
 * facts recorded with the event. A record deleted before then leaves its ids.
 */
export async function eventData(ctx: AppContext, type: string, subject: EventSubject): Promise<unknown> {
  try {
    switch (type) {
      case "client.created":
        return plain((await getClient(ctx, Number(subject.clientId))).body);
      case "project.created":
      case "project.published":
      case "project.unpublished":
        return plain((await getProject(ctx, Number(subject.projectId))).body);
      case "access.requested":
        return { user: await getUser(ctx, String(subject.uid)), message: subject.message ?? null };
      case "favourites.submitted": {
        const projectId = Number(subject.projectId);
        const selection = await favouriteSelection(ctx, projectId, Number(subject.visitorId));
        return { project: await projectSummary(ctx, projectId), selection };
      }
      case "delivery.viewed":
      case "delivery.downloaded": {
        const { projectId, ...facts } = subject;
        return { project: await projectSummary(ctx, Number(projectId)), ...facts };
      }
      default:
        return subject;
    }
  } catch (err) {
    if (err instanceof HttpError && err.statusCode === 404) return { ...subject, deleted: true };
    throw err;
  }
}
