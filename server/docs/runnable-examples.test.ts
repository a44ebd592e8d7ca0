import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../test/free-port";
import {
  commandOf,
  manualBlocks,
  missingLines,
  runnableBlocksOf,
  type RunnableBlock,
  type Substitutions,
} from "./runnable-blocks";

/**
 * Every block the manual marks runnable (README.md, docs/*.md; the convention is in runnable-blocks.ts and
 * docs/README.md) run as written against one fresh Photodrop: the first start's block (`npm start`) started
 * with its data in a temp folder and a free port, then each command block against it, in page order.
 */
const root = path.resolve(import.meta.dirname, "../..");
const blocks = manualBlocks(root);
const serverBlocks = blocks.filter((b) => b.kind === "server");
const commandBlocks = blocks.filter((b) => b.kind === "command");

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-docs-"));
let env: Record<string, string>;
let server: ChildProcess | undefined;
let serverOutput = "";
const values: Substitutions = { url: "" };

interface Run {
  status: number | null;
  output: string;
}

function run(code: string, timeoutMs: number): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn("bash", ["-e", "-o", "pipefail", "-c", code], { cwd: root, env, detached: true });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), timeoutMs);
    child.on("exit", (status) => {
      clearTimeout(timer);
      resolve({ status, output });
    });
  });
}

/** Starts the first start's block; resolves once it printed what its page says it prints. */
async function startServer(block: RunnableBlock): Promise<void> {
  const child = spawn("bash", ["-e", "-c", commandOf(block, values)], { cwd: root, env, detached: true });
  server = child;
  child.stdout!.on("data", (d: Buffer) => (serverOutput += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (serverOutput += d.toString()));
  const deadline = Date.now() + 280_000;
  while (
    missingLines(block, values.url, serverOutput).length > 0 ||
    !/^Sign in as .+ with password \S+$/m.test(serverOutput)
  ) {
    if (child.exitCode !== null) throw new Error(`${block.where} exited at start:\n${serverOutput.slice(-4000)}`);
    if (Date.now() > deadline)
      throw new Error(`${block.where} did not print what its page says:\n${serverOutput.slice(-4000)}`);
    await moreOutput(child, deadline);
  }
}

/** Resolves at the child's next output, at its exit, or at the deadline, whichever comes first. */
function moreOutput(child: ChildProcess, deadline: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      child.stdout!.off("data", done);
      child.stderr!.off("data", done);
      child.off("exit", done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, deadline - Date.now()));
    child.stdout!.on("data", done);
    child.stderr!.on("data", done);
    child.on("exit", done);
    if (child.exitCode !== null) done();
  });
}

async function stopServer(): Promise<void> {
  const child = server;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  process.kill(-child.pid!, "SIGTERM");
  const force = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), 10_000);
  await exited;
  clearTimeout(force);
}

beforeAll(async () => {
  const port = await freePort();
  values.url = `http://127.0.0.1:${port}`;
  env = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    HOST: "127.0.0.1",
    PORT: String(port),
    DATABASE_URL: path.join(dir, "photodrop.sqlite3"),
    UPLOADS_DIR: path.join(dir, "uploads"),
    PUBLISHED_DIR: path.join(dir, "published"),
    // The webhooks guide's receiver runs on this computer (docs/automations.md says so).
    WEBHOOK_ALLOW_PRIVATE: "1",
  };
  expect(serverBlocks.map((b) => b.where.split(":")[0])).toEqual(["docs/install-and-first-start.md"]);
  await startServer(serverBlocks[0]);
  const [, email, password] = /^Sign in as (\S+) with password (\S+)$/m.exec(serverOutput)!;
  values.password = password;
  const signIn = await fetch(`${values.url}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  expect(signIn.status).toBe(200);
  values.token = ((await signIn.json()) as { accessToken: string }).accessToken;
  const made = await fetch(`${values.url}/api/users/me/tokens`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${values.token}` },
    body: JSON.stringify({ name: "The manual's examples", scope: "write", expiresAt: null }),
  });
  expect(made.status).toBe(201);
  values.apiToken = ((await made.json()) as { token: string }).token;
  values.photosFolder = path.join(dir, "exports");
  fs.mkdirSync(values.photosFolder);
  for (const [i, colour] of ["#c97b4a", "#4a7bc9", "#7bc94a"].entries()) {
    const photo = sharp({ create: { width: 640, height: 427, channels: 3, background: colour } }).jpeg();
    await photo.toFile(path.join(values.photosFolder, `IMG_010${i + 1}.jpg`));
  }
}, 300_000);

afterAll(async () => {
  await stopServer();
  fs.rmSync(dir, { recursive: true, force: true });
}, 20_000);

describe("reading the convention", () => {
  const page = [
    "<!-- runnable -->",
    "",
    "   ```sh",
    "   curl -s http://127.0.0.1:3000/api/clients -H 'Authorization: Bearer <token>'",
    "   ```",
    "",
    "<!-- prints -->",
    "```text",
    '[{"id":<id>,"name":"Lumen Wedding"…}]',
    "```",
  ].join("\n");
  const [block] = runnableBlocksOf(page, "page.md");

  it("fills in the placeholders and refuses one it has no value for", () => {
    expect(commandOf(block, { url: "http://127.0.0.1:5555", token: "t0k" })).toBe(
      "curl -s http://127.0.0.1:5555/api/clients -H 'Authorization: Bearer t0k'",
    );
    expect(() => commandOf(block, { url: "http://127.0.0.1:5555" })).toThrow("page.md:3: no value for <token>");
  });

  it("holds the output to each printed line, whole, with placeholders for any text", () => {
    expect(missingLines(block, "", '[{"id":7,"name":"Lumen Wedding","version":1}]\n')).toEqual([]);
    expect(missingLines(block, "", '[{"id":7,"name":"Other"}]\n')).toEqual(block.prints);
    expect(missingLines(block, "", 'x[{"id":7,"name":"Lumen Wedding"}]\n')).toEqual(block.prints);
  });

  it("refuses a marker that does not precede a sh block", () => {
    expect(() => runnableBlocksOf("<!-- runnable -->\n```text\nhi\n```\n", "bad.md")).toThrow("bad.md:1");
  });
});

describe("the manual's runnable examples", () => {
  it("mark the first start, health checks and the API's curl examples", () => {
    const commands = commandBlocks.map((b) => b.code).join("\n");
    for (const example of [
      /\/healthz/,
      /\/readyz/,
      /\/api\/auth\/login/,
      /\/api\/projects\?/,
      /-X POST \S+\/api\/clients/,
      // docs/automations.md: a booking form, a folder upload with publish, a webhook receiver.
      /Bearer <api token>/,
      /\/attachments\/projects\/\$PROJECT\/upload/,
      /\/publish"/,
      /from "standardwebhooks"/,
    ])
      expect(commands, String(example)).toMatch(example);
    expect(commandBlocks.every((b) => b.prints.length > 0)).toBe(true);
  });

  it.each(commandBlocks.map((b) => [b.where, b] as const))(
    "%s runs as written and prints what it says",
    async (_where, block) => {
      const { status, output } = await run(commandOf(block, values), 60_000);
      expect(status, output).toBe(0);
      expect(missingLines(block, values.url, output), output).toEqual([]);
    },
  );
});
