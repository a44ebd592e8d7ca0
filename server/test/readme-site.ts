import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const readme = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../README.md");

/** The README's nginx site (under "Behind a reverse proxy") with `replacements` made, each of which must be found there. */
export function readmeSite(replacements: Array<[string, string]>): string {
  const site = /## Behind a reverse proxy[\s\S]*?```nginx\n([\s\S]*?)```/.exec(fs.readFileSync(readme, "utf8"))?.[1];
  if (!site) throw new Error("no nginx site under 'Behind a reverse proxy' in README.md");
  return replacements.reduce((text, [from, to]) => {
    if (!text.includes(from)) throw new Error(`the README's site no longer has ${from}`);
    return text.replaceAll(from, to);
  }, site);
}

/** The site's internal locations for SENDFILE_HEADER, headers included, over these folders. */
export function readmeInternalLocations(uploadsDir: string, publishedDir: string): string {
  const site = readmeSite([
    ["/var/lib/photodrop/uploads/", `${uploadsDir}/`],
    ["/var/lib/photodrop/published/", `${publishedDir}/`],
  ]);
  const block = /\n( {4})location \/_photodrop_files\/ \{[\s\S]*?\n\1\}\n/.exec(site)?.[0];
  if (!block) throw new Error("no `location /_photodrop_files/` block in the README's site");
  return block;
}
