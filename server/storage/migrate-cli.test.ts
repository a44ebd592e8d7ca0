import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startS3Server, type TestS3Server } from "../test/s3-server";
import { filesUnder } from "../test/stored-files";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

let s3: TestS3Server;
let dir: string;
beforeAll(async () => {
  s3 = await startS3Server();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-migrate-cli-"));
});
afterAll(async () => {
  await s3?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run storage:migrate -- <args>` as a person runs it: its own process, only the environment given. */
function migrate(args: string[], env: Record<string, string>): Promise<Run> {
  const child = spawn(process.execPath, ["--import", "tsx", "server/storage/migrate-cli.ts", ...args], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, stdout, stderr })));
}

function folderWith(files: Record<string, Buffer>): string {
  const root = fs.mkdtempSync(path.join(dir, "uploads-"));
  for (const [key, bytes] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, key)), { recursive: true });
    fs.writeFileSync(path.join(root, key), bytes);
  }
  return root;
}

describe("npm run storage:migrate", () => {
  it("dry-runs, copies to the bucket with progress and a summary, then back to an empty folder, exiting 0", async () => {
    const files = { "1/a.jpg": crypto.randomBytes(50_000), "1/a.thumb.webp": crypto.randomBytes(3_000) };
    const zip = { [`${"Z".repeat(22)}.zip`]: crypto.randomBytes(20_000) };
    const env = {
      ...s3.env(`cli-${crypto.randomBytes(4).toString("hex")}`),
      UPLOADS_DIR: folderWith(files),
      PUBLISHED_DIR: folderWith({ ...zip, [`${"P".repeat(22)}.zip.part`]: Buffer.from("partial") }),
    };

    const dry = await migrate(["--to", "s3", "--dry-run"], env);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain("would copy 1/a.jpg (50000 bytes)");
    expect(dry.stdout).toMatch(/Dry run: 2 of 2 files \(0\.1 MiB\) would be copied .* Nothing was written\./);

    const run = await migrate(["--to", "s3"], env);
    expect(run.code).toBe(0);
    // Not a terminal: plain progress lines, the last with every file.
    expect(run.stderr).toMatch(/^2\/2 files, 0\.1\/0\.1 MiB, [\d.]+ MiB\/s$/m);
    expect(run.stdout).toMatch(/Copied 2 of 2 files \(0\.1 MiB\) from .* to s3:\/\/photodrop-test\/cli-\w+\/uploads\//);
    // The published ZIPs under their own names, unfinished `.part` files left out.
    expect(run.stdout).toMatch(
      /Copied 1 of 1 files \(0\.0 MiB\) from .* to s3:\/\/photodrop-test\/cli-\w+\/published\//,
    );

    const again = await migrate(["--to", "s3"], env);
    expect(again.stdout).toContain("Copied 0 of 2 files (0.0 MiB)");
    expect(again.stdout).toContain("2 already there");

    const back = fs.mkdtempSync(path.join(dir, "back-"));
    const publishedBack = fs.mkdtempSync(path.join(dir, "published-back-"));
    const restored = await migrate(["--to", "disk"], { ...env, UPLOADS_DIR: back, PUBLISHED_DIR: publishedBack });
    expect(restored.code).toBe(0);
    expect(filesUnder(back)).toEqual(Object.keys(files).sort());
    expect(filesUnder(publishedBack)).toEqual(Object.keys(zip));
    expect(fs.readFileSync(path.join(publishedBack, Object.keys(zip)[0])).equals(Object.values(zip)[0])).toBe(true);
    for (const [key, bytes] of Object.entries(files))
      expect(fs.readFileSync(path.join(back, key)).equals(bytes)).toBe(true);
  });

  it("exits 1 naming each file it could not copy, after copying the others", async () => {
    const env = {
      ...s3.env(`cli-${crypto.randomBytes(4).toString("hex")}`),
      UPLOADS_DIR: folderWith({ "1/a.jpg": Buffer.from("one"), "2/b.jpg": Buffer.from("two") }),
      PUBLISHED_DIR: folderWith({}),
    };
    expect((await migrate(["--to", "s3"], env)).code).toBe(0);
    // A file where the folder `1` should be: that object cannot be written back.
    const back = folderWith({ "1": Buffer.from("in the way") });

    const run = await migrate(["--to", "disk"], { ...env, UPLOADS_DIR: back, PUBLISHED_DIR: folderWith({}) });

    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^failed 1\/a\.jpg: /m);
    expect(run.stdout).toContain("Copied 1 of 2 files");
    expect(run.stdout).toContain("1 failed");
    expect(fs.readFileSync(path.join(back, "2/b.jpg"), "utf8")).toBe("two");
  });

  it("refuses without STORAGE_URL (exit 1) and with unknown arguments (exit 2)", async () => {
    const noBucket = await migrate(["--to", "s3"], { UPLOADS_DIR: dir });
    expect(noBucket.code).toBe(1);
    expect(noBucket.stderr).toContain("Set STORAGE_URL");

    const usage = await migrate(["--to", "ftp"], s3.env("x"));
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("Usage:");
  });
});
