/** The extension each accepted type is stored under, and the other spellings a name may already carry. */
const EXTENSIONS: Record<string, { extension: string; also: string[] }> = {
  "image/jpeg": { extension: "jpg", also: ["jpeg", "jpe", "jfif"] },
  "image/png": { extension: "png", also: [] },
  "image/gif": { extension: "gif", also: [] },
  "image/webp": { extension: "webp", also: [] },
};

export const MAX_FILE_NAME_LENGTH = 255;

// C0 and C1 controls (CR, LF, NUL and the rest), DEL, and the bidirectional embeddings, overrides
// and isolates that make "photo\u202Egpj.exe" display as "photoexe.jpg".
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** A name with its unsafe characters removed and trimmed; may be empty. */
function cleanFileName(name: string): string {
  return name.normalize("NFC").replace(UNSAFE, "").trim();
}

/**
 * The name an attachment is stored under: cleaned, never empty (`photo-<n>.<ext>`), and always
 * ending in the extension of its detected type, so "poly.html" holding a JPEG becomes "poly.html.jpg".
 */
export function safeFileName(name: string, mimeType: string, n: number): string {
  const known = EXTENSIONS[mimeType];
  const extension = known?.extension ?? "bin";
  const cleaned = cleanFileName(name).replace(/[. ]+$/, "");
  if (!cleaned) return `photo-${n}.${extension}`;
  const dot = cleaned.lastIndexOf(".");
  const current = dot > 0 ? cleaned.slice(dot + 1).toLowerCase() : "";
  if (current === extension || known?.also.includes(current)) return cleaned.slice(0, MAX_FILE_NAME_LENGTH);
  const suffix = `.${extension}`;
  return `${cleaned.slice(0, MAX_FILE_NAME_LENGTH - suffix.length).trimEnd()}${suffix}`;
}

/** A preview's name: the photo's, with `.jpg` in place of its own type's extension (a JPEG's name is kept). */
export function jpegNameOf(name: string): string {
  const dot = name.lastIndexOf(".");
  const current = dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
  const jpeg = EXTENSIONS["image/jpeg"];
  if (current === jpeg.extension || jpeg.also.includes(current)) return name;
  return `${dot > 0 ? name.slice(0, dot) : name}.${jpeg.extension}`;
}
