import path from "node:path";
import type { Config } from "../config";

/** The internal location a proxy maps onto UPLOADS_DIR and PUBLISHED_DIR for `X-Accel-Redirect` (README). */
export const ACCEL_LOCATION = "/_photodrop_files";

/** File names Photodrop generates: nothing a URI or a header would need to escape. */
const PLAIN_NAME = /^[A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.-]+)*$/;

/** What to tell the proxy in front so it sends `file` itself; undefined when no SENDFILE_HEADER is set. */
export type SendfileTarget = (file: string) => { header: string; target: string };

export function sendfileTarget(config: Config): SendfileTarget | undefined {
  const header = config.sendfileHeader;
  if (!header) return undefined;
  const folders: Array<[string, string]> = [
    [config.uploadsDir, "uploads"],
    [config.publishedDir, "published"],
  ];
  return (file) => {
    if (header === "X-Sendfile") return { header, target: file };
    for (const [dir, name] of folders) {
      const relative = path.relative(dir, file).split(path.sep).join("/");
      if (file.startsWith(dir + path.sep) && PLAIN_NAME.test(relative))
        return { header, target: `${ACCEL_LOCATION}/${name}/${relative}` };
    }
    throw new Error("a file to hand to the proxy must be a generated name in UPLOADS_DIR or PUBLISHED_DIR");
  };
}
