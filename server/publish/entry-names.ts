/** What the ZIP builder needs to know about one attachment to name its entry. */
export interface NamedFile {
  originalName: string;
  mimeType: string;
}

const EXTENSION_BY_TYPE: Record<string, string> = {
  "image/jpeg": ".jpg",
  "image/png": ".png",
  "image/gif": ".gif",
  "image/webp": ".webp",
};

/**
 * Characters Windows refuses in file names, and control characters, become "_" so the ZIP
 * unpacks the same everywhere; ':' also matters because archiver strips a leading "word:" as a
 * drive letter, which would make two distinct names collide after de-duplication.
 */
function safeBaseName(originalName: string): string {
  const base = originalName.replace(/\\/g, "/").split("/").pop() ?? "";
  return base
    .normalize("NFC")
    .replace(/[\u0000-\u001f\u007f<>:"|?*]/g, "_")
    .trim()
    .replace(/[. ]+$/, "");
}

function splitExtension(name: string): [stem: string, extension: string] {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ""];
}

/**
 * Entry names for a ZIP, in the order given: each original name without any folder part;
 * names that clash (ignoring case) get " (1)", " (2)", ... before the extension, while the first
 * holder of a name, and any file already named like "a (1).jpg", keep their names unchanged.
 */
export function zipEntryNames(files: NamedFile[]): string[] {
  const wanted = files.map((file, index) => {
    const base = safeBaseName(file.originalName);
    return base && base !== "." && base !== ".." ? base : `photo-${index + 1}${EXTENSION_BY_TYPE[file.mimeType] ?? ""}`;
  });
  const key = (name: string) => name.toLowerCase();
  const taken = new Set<string>();
  const names: Array<string | undefined> = wanted.map((name) => {
    if (taken.has(key(name))) return undefined;
    taken.add(key(name));
    return name;
  });
  return names.map((name, index) => {
    if (name !== undefined) return name;
    const [stem, extension] = splitExtension(wanted[index]);
    for (let n = 1; ; n++) {
      const candidate = `${stem} (${n})${extension}`;
      if (!taken.has(key(candidate))) {
        taken.add(key(candidate));
        return candidate;
      }
    }
  });
}
