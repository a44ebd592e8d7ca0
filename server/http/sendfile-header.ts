import path from "node:path";
import type { Config } from "../config";

/** The internal location a proxy maps onto UPLOADS_DIR for `X-Accel-Redirect` (README, "Behind a reverse proxy"). */
export const ACCEL_LOCATION = "/_photodrop_files/uploads";

/** File names Photodrop generates: nothing a URI or a header would need to escape. */
const PLAIN_NAME = /^[A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.-]+)*$/;

/** What to tell the proxy in front so it sends `file` (a photo or thumbnail) itself; undefined when no SENDFILE_HEADER is set. */
type SendfileTarget = (file: string) => { header: string; target: string };

export function sendfileTarget(config: Config): SendfileTarget | undefined {
  const header = config.sendfileHeader;
  if (!header) return undefined;
  const dir = config.uploadsDir;
  return (file) => {
    const relative = path.relative(dir, file).split(path.sep).join("/");
    if (!file.startsWith(dir + path.sep) || !PLAIN_NAME.test(relative))
      throw new Error("a file to hand to the proxy must be a generated name in UPLOADS_DIR");
    return { header, target: header === "X-Sendfile" ? file : `${ACCEL_LOCATION}/${relative}` };
  };
}
