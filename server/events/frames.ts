import { z } from "zod";
import type { ResourceName } from "./bus";
import { MAX_ID } from "../http/validate";

/** Every resource a socket may follow; `users` only for admins. */
export const RESOURCE_NAMES = [
  "clients",
  "contacts",
  "projects",
  "attachments",
  "users",
  "dashboard",
  "studio",
  "favourites",
] as const satisfies readonly ResourceName[];

/** Web clients often hold a route parameter ("7") rather than a number. */
const projectId = z
  .union(
    [
      z.number(),
      z
        .string()
        .regex(/^\d{1,15}$/)
        .transform(Number),
    ],
    { error: "Invalid projectId" },
  )
  .pipe(
    z
      .number({ error: "Invalid projectId" })
      .int("Invalid projectId")
      .positive("Invalid projectId")
      .max(MAX_ID, "Invalid projectId"),
  );

const token = z.string().optional();

const resources = z
  .array(z.enum(RESOURCE_NAMES, { error: "Unknown resource" }), { error: "resources must be a list" })
  .min(1, "resources must not be empty")
  .max(RESOURCE_NAMES.length);

const frames = {
  "subscribe-to-project": z.object({ projectId, token }),
  "unsubscribe-from-project": z.object({ projectId }),
  "subscribe-to-resources": z.object({ resources, token }),
  "unsubscribe-from-resources": z.object({ resources }),
  "subscribe-to-access": z.object({ token }),
  "unsubscribe-from-access": z.object({}),
};

type Frames = typeof frames;
export type ClientFrame = { [K in keyof Frames]: { event: K; data: z.infer<Frames[K]> } }[keyof Frames];

const envelope = z.object({ event: z.string(), data: z.unknown().optional() });

/** A client frame, or the message of the error frame to answer it with. */
export function parseClientFrame(text: string): ClientFrame | { error: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { error: "Malformed frame: not JSON" };
  }
  const outer = envelope.safeParse(json);
  if (!outer.success) return { error: "Malformed frame: expected {event, data}" };
  const { event, data } = outer.data;
  if (!Object.hasOwn(frames, event)) return { error: `Unknown event: ${event.slice(0, 64)}` };
  const parsed = frames[event as keyof Frames].safeParse(data ?? {});
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? "Malformed frame" };
  return { event, data: parsed.data } as ClientFrame;
}
