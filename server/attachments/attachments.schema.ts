import { z } from "zod";
import { MAX_ID, requiredName } from "../http/validate";
import { cleanFileName, MAX_FILE_NAME_LENGTH } from "./file-names";

/** Control and bidirectional-override characters go before the checks, so a name of only those is refused as empty. */
export const renameAttachmentSchema = z.object({
  originalName: z.preprocess((v) => (typeof v === "string" ? cleanFileName(v) : v), requiredName(MAX_FILE_NAME_LENGTH)),
});
export type RenameAttachmentInput = z.infer<typeof renameAttachmentSchema>;

export const MAX_IDS_PER_DELETE = 1000;

export const bulkDeleteSchema = z.object({
  ids: z
    .array(
      z
        .number({ error: "ids must be positive integers" })
        .int("ids must be positive integers")
        .positive("ids must be positive integers")
        .max(MAX_ID, "ids must be positive integers"),
      {
        error: "ids must be an array of attachment ids",
      },
    )
    .min(1, "Select at least one attachment")
    .max(MAX_IDS_PER_DELETE, `At most ${MAX_IDS_PER_DELETE} attachments at once`),
});
export type BulkDeleteInput = z.infer<typeof bulkDeleteSchema>;
