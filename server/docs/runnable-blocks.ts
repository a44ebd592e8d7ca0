import fs from "node:fs";
import path from "node:path";

/**
 * The manual's runnable examples (README.md and docs/*.md). The convention, also in docs/README.md:
 *
 *   <!-- runnable -->          before a ```sh block: a command that must exit 0 within a minute
 *   <!-- runnable: server -->  before a ```sh block: starts Photodrop and keeps running (the first start)
 *   <!-- prints -->            before the block after a runnable one: lines its output must hold, each
 *                              whole; `<anything in angle brackets>` and `…` stand for any text
 *
 * In a runnable block, `http://127.0.0.1:3000` is the server's address, `<password>` the password its
 * first start printed, `<token>` an access token of that admin, `<api token>` an API token of theirs
 * (scope write) and `<folder of JPEGs>` a folder holding a few camera JPEGs.
 */
export interface RunnableBlock {
  /** `docs/api.md:23`: where the block starts. */
  where: string;
  kind: "command" | "server";
  code: string;
  /** The lines of its `<!-- prints -->` block, if it has one. */
  prints: string[];
}

const MARKER = /^\s*<!-- runnable(: server)? -->\s*$/;
const PRINTS = /^\s*<!-- prints -->\s*$/;

/** The fenced block starting at or after `from` (blank lines skipped), dedented; null when another line comes first. */
function fenceAt(lines: string[], from: number): { body: string[]; info: string; start: number; end: number } | null {
  let i = from;
  while (i < lines.length && lines[i].trim() === "") i++;
  const open = /^(\s*)```(\S*)\s*$/.exec(lines[i] ?? "");
  if (!open) return null;
  const indent = open[1];
  const end = lines.findIndex((line, j) => j > i && line.trim() === "```");
  if (end < 0) return null;
  const body = lines.slice(i + 1, end).map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line));
  return { body, info: open[2], start: i, end };
}

export function runnableBlocksOf(markdown: string, file: string): RunnableBlock[] {
  const lines = markdown.split("\n");
  const blocks: RunnableBlock[] = [];
  lines.forEach((line, i) => {
    const marker = MARKER.exec(line);
    if (!marker) return;
    const fence = fenceAt(lines, i + 1);
    if (!fence || fence.info !== "sh")
      throw new Error(`${file}:${i + 1}: a runnable marker must precede a \`\`\`sh block`);
    let prints: string[] = [];
    let next = fence.end + 1;
    while (next < lines.length && lines[next].trim() === "") next++;
    if (PRINTS.test(lines[next] ?? "")) {
      const output = fenceAt(lines, next + 1);
      if (!output) throw new Error(`${file}:${next + 1}: <!-- prints --> must precede a fenced block`);
      prints = output.body.filter((l) => l.trim() !== "");
    }
    blocks.push({
      where: `${file}:${fence.start + 1}`,
      kind: marker[1] ? "server" : "command",
      code: fence.body.join("\n"),
      prints,
    });
  });
  return blocks;
}

/** Every runnable block of README.md and docs/*.md under `root`, in that order. */
export function manualBlocks(root: string): RunnableBlock[] {
  const pages = [
    "README.md",
    ...fs
      .readdirSync(path.join(root, "docs"))
      .filter((name) => name.endsWith(".md"))
      .sort()
      .map((name) => `docs/${name}`),
  ];
  return pages.flatMap((page) => runnableBlocksOf(fs.readFileSync(path.join(root, page), "utf8"), page));
}

export interface Substitutions {
  url: string;
  password?: string;
  token?: string;
  apiToken?: string;
  photosFolder?: string;
}

const DOCS_URL = "http://127.0.0.1:3000";

/** The block's command with the placeholders filled in; an unknown `<placeholder>` is an error. */
export function commandOf(block: RunnableBlock, values: Substitutions): string {
  const code = block.code
    .replaceAll(DOCS_URL, values.url)
    .replaceAll("<password>", values.password ?? "<password>")
    .replaceAll("<token>", values.token ?? "<token>")
    .replaceAll("<api token>", values.apiToken ?? "<api token>")
    .replaceAll("<folder of JPEGs>", values.photosFolder ?? "<folder of JPEGs>");
  const left = /<[a-z][a-zA-Z -]*>/.exec(code);
  if (left) throw new Error(`${block.where}: no value for ${left[0]}`);
  return code;
}

/** The printed lines as patterns for whole lines of the output. */
function printedPatterns(block: RunnableBlock, url: string): RegExp[] {
  return block.prints.map((line) => {
    const pieces = line.replaceAll(DOCS_URL, url).split(/<[^<>]+>|…/);
    const escaped = pieces.map((piece) => piece.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    return new RegExp(`^${escaped.join(".*?")}$`, "m");
  });
}

/** The patterns `output` (CRs dropped) does not hold. */
export function missingLines(block: RunnableBlock, url: string, output: string): string[] {
  const text = output.replaceAll("\r", "");
  return printedPatterns(block, url)
    .map((pattern, i) => (pattern.test(text) ? null : block.prints[i]))
    .filter((line): line is string => line !== null);
}
