import { z } from "zod";
import { MAX_ID, optionalText, requiredName } from "../http/validate";
import { clientReference } from "../clients/clients.schema";
import { PHOTO_ORDERS } from "../attachments/photo-order";

const description = optionalText("Description", 10_000);
// "No client" arrives as null, or as an empty string from a cleared select.
const optionalClient = z.preprocess((v) => (v === "" ? null : v), clientReference.nullable());

/** How the project's photos are ordered everywhere: capture time (the default), file name, or upload. */
const photoOrder = z.enum(PHOTO_ORDERS, { error: `photoOrder must be one of ${PHOTO_ORDERS.join(", ")}` });

export const createProjectSchema = z.object({
  name: requiredName(),
  description: description.optional(),
  clientId: optionalClient.optional(),
  photoOrder: photoOrder.optional(),
});

/** The same fields, each optional: only those sent change. */
export const updateProjectSchema = createProjectSchema.partial();

/** PUT /api/projects/:id/cover: one of the project's photos, or null for the first. */
export const coverSchema = z.object({
  attachmentId: z.preprocess(
    (v) => (typeof v === "string" && /^[1-9]\d{0,9}$/.test(v) ? Number(v) : v),
    z
      .number({ error: "attachmentId must be a positive integer id or null" })
      .int("attachmentId must be a positive integer id or null")
      .positive("attachmentId must be a positive integer id or null")
      .max(MAX_ID, "attachmentId must be a positive integer id or null")
      .nullable(),
  ),
});

export type CreateProjectInput = z.infer<typeof createProjectSchema>;
export type UpdateProjectInput = z.infer<typeof updateProjectSchema>;
