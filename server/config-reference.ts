import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { format, resolveConfig } from "prettier";
import { SETTING_GROUPS, settingDocs, type SettingDoc } from "./config";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const REFERENCE_FILE = path.join(root, "docs/configuration.md");
const CONFIG_SOURCE = path.join(root, "server/config.ts");

const INTRO = [
  "# Configuration reference",
  "",
  "> Generated from `server/config.ts` by `npm run docs:config`: change a setting's description there and run it",
  "> again. A test fails while this page and the code disagree.",
  "",
  "Photodrop reads every setting from its environment once, at start: the shell's with `npm start`,",
  "`/etc/photodrop/photodrop.env` when it runs as a service ([service.md](service.md)). A value it cannot use stops",
  "the start with a message naming the setting; an unset or empty one takes its default.",
  "",
];

const cell = (text: string) => text.replace(/\|/g, "\\|");

function row(setting: SettingDoc & { name: string }): string {
  const fallback = setting.default === undefined ? "unset" : `\`${setting.default}\``;
  const values = setting.values ?? "text";
  return `| \`${setting.name}\` | ${cell(fallback)} | ${cell(values)} | ${cell(setting.description)} |`;
}

/** docs/configuration.md as the settings in server/config.ts make it, formatted as Prettier keeps it. */
export async function renderConfigReference(settings = settingDocs()): Promise<string> {
  const lines = [...INTRO];
  for (const [group, title] of Object.entries(SETTING_GROUPS)) {
    const inGroup = settings.filter((s) => s.group === group);
    if (inGroup.length === 0) continue;
    lines.push(`## ${title}`, "", "| Setting | Default | Values | Meaning |", "| --- | --- | --- | --- |");
    lines.push(...inGroup.map(row), "");
  }
  const options = await resolveConfig(REFERENCE_FILE);
  return format(lines.join("\n"), { ...options, filepath: REFERENCE_FILE });
}

/**
 * Every variable name config.ts reads from the environment outside its schema too (`env.NAME`,
 * `process.env.NAME`), and every key of the schema: what the reference must name.
 */
export function envNamesIn(source: string): string[] {
  const names = new Set<string>();
  for (const match of source.matchAll(/\b(?:process\.)?env\??\.([A-Z][A-Z0-9_]*)\b/g)) names.add(match[1]);
  for (const match of source.matchAll(/^ {2}([A-Z][A-Z0-9_]*): /gm)) names.add(match[1]);
  return [...names].sort();
}

/** The names in `source` the page does not list as a setting of its own row. */
export function missingFromReference(source: string, page: string): string[] {
  return envNamesIn(source).filter((name) => !page.includes(`| \`${name}\``));
}

export const readReference = () => fs.readFileSync(REFERENCE_FILE, "utf8");
export const readConfigSource = () => fs.readFileSync(CONFIG_SOURCE, "utf8");
