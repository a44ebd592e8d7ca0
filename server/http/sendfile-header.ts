import path from "node:path";
import type { Config } from "../config";

/** The internal locations a proxy maps onto UPLOADS_DIR and PUBLISHED_DIR for `X-Accel-Redirect` (docs/behind-nginx.md). */
export const ACCEL_LOCATION = "/_photodrop_files/uploads";
export const ACCEL_PUBLISHED_LOCATION = "/_photodrop_files/published";

/** File names Photodrop generates: nothing a URI or a header would need to escape. */
const PLAIN_NAME = /^[A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.-]+)*$/;

/**
 * What to tell the proxy in front so it sends `file` (a photo, a thumbnail or a published ZIP)
 * itself; undefined when no SENDFILE_HEADER is set.
 */
type SendfileTarget = (file: string) => { header: string; target: string };

export function sendfileTarget(config: Config): SendfileTarget | undefined {
  const header = config.sendfileHeader;
  if (!header) return undefined;
  const folders: Array<[string, string]> = [
    [config.uploadsDir, ACCEL_LOCATION],
    [config.publishedDir, ACCEL_PUBLISHED_LOCATION],
  ];
  return (file) => {
    for (const [dir, location] of folders) {
      if (!file.startsWith(dir + path.sep)) continue;
      const relative = path.relative(dir, file).split(path.sep).join("/");
      if (!PLAIN_NAME.test(relative)) break;
      return { header, target: header === "X-Sendfile" ? file : `${location}/${relative}` };
    }
    throw new Error("a file to hand to the proxy must be a generated name in UPLOADS_DIR or PUBLISHED_DIR");
  };
}
