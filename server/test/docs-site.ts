import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const page = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../docs/behind-nginx.md");

/** The nginx site of docs/behind-nginx.md (its one ```nginx block) with `replacements` made, each of which must be found there. */
export function docsSite(replacements: Array<[string, string]>): string {
  const site = /```nginx\n([\s\S]*?)```/.exec(fs.readFileSync(page, "utf8"))?.[1];
  if (!site) throw new Error("no ```nginx site in docs/behind-nginx.md");
  return replacements.reduce((text, [from, to]) => {
    if (!text.includes(from)) throw new Error(`docs/behind-nginx.md's site no longer has ${from}`);
    return text.replaceAll(from, to);
  }, site);
}

/** Replacements that point the site's upstream at `address` (`host:port`). */
export const upstreamAt = (address: string): Array<[string, string]> => [
  ["server 127.0.0.1:3000;", `server ${address};`],
];

/** Replacements that point the site's internal locations at these data folders. */
export const dataFoldersAt = (uploadsDir: string, publishedDir: string): Array<[string, string]> => [
  ["/var/lib/photodrop/uploads/", `${uploadsDir}/`],
  ["/var/lib/photodrop/published/", `${publishedDir}/`],
];

/**
 * One block of docs/behind-nginx.md's site, from its opening line (`upstream photodrop {`, `    location / {`)
 * to the brace that closes it at the same indentation, with `replacements` made.
 */
export function docsBlock(opening: string, replacements: Array<[string, string]> = []): string {
  const site = `\n${docsSite(replacements)}`;
  const indent = /^ */.exec(opening)![0];
  const start = site.indexOf(`\n${opening}\n`);
  const end = start < 0 ? -1 : site.indexOf(`\n${indent}}\n`, start + 1);
  if (end < 0) throw new Error(`no block \`${opening.trim()}\` in docs/behind-nginx.md's site`);
  return site.slice(start + 1, end + indent.length + 3);
}
