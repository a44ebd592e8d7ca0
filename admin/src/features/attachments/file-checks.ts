import { IMAGE_EXTENSIONS, IMAGE_SIGNATURE_BYTES, imageTypeOf } from "../../../../api/image-types";
import { formatFileSize } from "../../lib/format";
import { t } from "../../i18n";

const IMAGE_NAME = new RegExp(`(${Object.values(IMAGE_EXTENSIONS).flat().join("|").replaceAll(".", "\\.")})$`, "i");

/** What the drop zone and the file picker offer (by type and by name). */
export const ACCEPTED_FILES = IMAGE_EXTENSIONS;

const tooLarge = (size: number, limit: number) =>
  t("attachments.tooLarge", { size: formatFileSize(size), limit: formatFileSize(limit) });

/**
 * Why the server would refuse a file, told before any byte is sent from its name's extension and
 * its size against the server's limit; null when those are fine.
 */
export function refusalByName(file: File, maxUploadBytes: number): string | null {
  if (!IMAGE_NAME.test(file.name)) return t("attachments.onlyImages");
  if (file.size === 0) return t("attachments.emptyFile");
  if (file.size > maxUploadBytes) return tooLarge(file.size, maxUploadBytes);
  return null;
}

/** Why the server would refuse a file's content, told from its first bytes (the server's own signatures). */
export async function refusalByContent(file: File): Promise<string | null> {
  const head = new Uint8Array(await file.slice(0, IMAGE_SIGNATURE_BYTES).arrayBuffer());
  return imageTypeOf(head) ? null : t("attachments.notAnImage");
}
