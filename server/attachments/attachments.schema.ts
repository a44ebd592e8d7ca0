import { z } from "zod";
import { MAX_ID, parseBody, requiredName } from "../http/validate";
import { MAX_FILE_NAME_LENGTH } from "./file-names";

/**
 * A name typed in 'Rename' is one line like any other name: a line break, a control character or
 * a bidi override is refused (an upload's name, which nobody typed, is cleaned instead).
 */
export const renameAttachmentSchema = z.object({
  originalName: z.preprocess(
    (v) => (typeof v === "string" ? v.normalize("NFC") : v),
    requiredName(MAX_FILE_NAME_LENGTH),
  ),
});
export type RenameAttachmentInput = z.infer<typeof renameAttachmentSchema>;

export const MAX_IDS_PER_DELETE = 1000;

const attachmentIds = z.array(
  z
    .number({ error: "ids must be positive integers" })
    .int("ids must be positive integers")
    .positive("ids must be positive integers")
    .max(MAX_ID, "ids must be positive integers"),
  { error: "ids must be an array of attachment ids" },
);

/** `{ids}`: these attachments. */
export const bulkDeleteSchema = z.object({
  ids: attachmentIds
    .min(1, "Select at least one attachment")
    .max(MAX_IDS_PER_DELETE, `At most ${MAX_IDS_PER_DELETE} attachments at once`),
});
export type BulkDeleteInput = z.infer<typeof bulkDeleteSchema>;

/**
 * `{projectId, exceptIds?, count}`: every attachment of a project but the listed ones, however
 * many ('Select All' on a project of any size). `count` is how many the user was asked to
 * confirm: if the project's photos changed since, nothing is deleted.
 */
export const projectDeleteSchema = z.object({
  projectId: z
    .number({ error: "projectId must be a positive integer" })
    .int("projectId must be a positive integer")
    .positive("projectId must be a positive integer")
    .max(MAX_ID, "projectId must be a positive integer"),
  exceptIds: attachmentIds
    .max(MAX_IDS_PER_DELETE, `At most ${MAX_IDS_PER_DELETE} attachments kept at once`)
    .default([]),
  count: z
    .number({ error: "count must be the number of attachments to delete" })
    .int("count must be the number of attachments to delete")
    .positive("Select at least one attachment"),
});
export type ProjectDeleteInput = z.infer<typeof projectDeleteSchema>;

/** DELETE /api/attachments takes either form; a body naming a project is the second. */
export const parseDeletion = (body: unknown): BulkDeleteInput | ProjectDeleteInput =>
  parseBody(
    typeof body === "object" && body !== null && "projectId" in body ? projectDeleteSchema : bulkDeleteSchema,
    body,
  );
