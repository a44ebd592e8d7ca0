import path from "node:path";
import type { Config } from "../config";
import { webSizeZipName } from "./paths";
import { storesOf } from "./stores";

/** The published store's key of a ZIP from the stored `published/<name>.zip` (or the bare name). */
export const publishedZipKey = (publishedZipPath: string) => path.basename(publishedZipPath);

/** The key of the web-size ZIP built beside it (`<name>-web.zip`, see webSizeZipFile). */
export const webSizeZipKey = (publishedZipPath: string) => webSizeZipName(publishedZipKey(publishedZipPath));

/**
 * Removes a project's ZIP and its web-size ZIP, with their unfinished `.part` files on disk,
 * wherever they are kept; one already gone is no error.
 */
export async function removePublishedZips(config: Config, publishedZipPath: string): Promise<void> {
  const published = storesOf(config).published;
  const keys = [publishedZipKey(publishedZipPath), webSizeZipKey(publishedZipPath)];
  await published.remove(...keys, ...(published.kind === "disk" ? keys.map((key) => `${key}.part`) : []));
}
