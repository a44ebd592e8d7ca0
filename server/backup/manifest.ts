import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { z } from "zod";
import { PRIVATE_MODES } from "../storage/file-modes";
import { BackupError } from "./backup-error";

export const MANIFEST_FILE = "manifest.json";

/** Paths inside a backup folder: `uploads/…` or `published/…`, never absolute, never `..`. */
const storedPath = z
  .string()
  .regex(/^(uploads|published)\/[A-Za-z0-9_-][A-Za-z0-9._/-]*$/, "not a backup file path")
  .refine((p) => !p.split("/").includes(".."), "not a backup file path");

const entry = z.object({
  path: z.string(),
  size: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

const manifestSchema = z.object({
  format: z.literal("photodrop-backup/1"),
  createdAt: z.string(),
  /** The newest migration the database had: a restore refuses a schema this code does not know. */
  schemaVersion: z.string(),
  withZips: z.boolean(),
  /** Set when the files are objects left in this bucket (STORAGE_URL), not copies in the backup folder. */
  objectStorage: z.object({ url: z.string() }).optional(),
  database: entry.extend({ kind: z.literal("sqlite"), path: z.literal("database.sqlite3") }),
  files: z.array(entry.extend({ path: storedPath })),
});

export type Manifest = z.infer<typeof manifestSchema>;
export type ManifestEntry = z.infer<typeof entry>;

export async function sha256File(file: string): Promise<string> {
  const hash = crypto.createHash("sha256");
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest("hex");
}

export async function describeFile(folder: string, relative: string): Promise<ManifestEntry> {
  const file = path.join(folder, relative);
  return { path: relative, size: (await fs.promises.stat(file)).size, sha256: await sha256File(file) };
}

/** Written last, under a temporary name then renamed: a folder without it is no backup. */
export async function writeManifest(folder: string, manifest: Manifest): Promise<void> {
  const part = path.join(folder, `${MANIFEST_FILE}.part`);
  await fs.promises.writeFile(part, `${JSON.stringify(manifest, null, 2)}\n`, { mode: PRIVATE_MODES.file });
  await fs.promises.rename(part, path.join(folder, MANIFEST_FILE));
}

export async function readManifest(folder: string): Promise<Manifest> {
  let text: string;
  try {
    text = await fs.promises.readFile(path.join(folder, MANIFEST_FILE), "utf8");
  } catch {
    throw new BackupError(`${folder} holds no ${MANIFEST_FILE}: not a finished Photodrop backup`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new BackupError(`${MANIFEST_FILE} is not valid JSON`);
  }
  const result = manifestSchema.safeParse(parsed);
  if (!result.success) {
    const where = result.error.issues[0];
    throw new BackupError(
      `${MANIFEST_FILE} is not a Photodrop backup manifest (${where.path.join(".")}: ${where.message})`,
    );
  }
  return result.data;
}

/** Every file of the manifest, database included, is there with its size and SHA-256; lists each one that is not. */
export async function verifyBackup(folder: string, manifest: Manifest): Promise<void> {
  refuseDamaged(await fileProblems(folder, [manifest.database, ...manifest.files]));
}

/** What is wrong with the backup folder's files: each one missing, of another size, or other bytes. */
export async function fileProblems(folder: string, items: ManifestEntry[]): Promise<string[]> {
  const problems: string[] = [];
  for (const item of items) {
    const file = path.join(folder, item.path);
    try {
      const stat = await fs.promises.stat(file);
      if (!stat.isFile()) problems.push(`${item.path}: not a file`);
      else if (stat.size !== item.size)
        problems.push(`${item.path}: ${stat.size} bytes, the manifest says ${item.size}`);
      else if ((await sha256File(file)) !== item.sha256) problems.push(`${item.path}: checksum does not match`);
    } catch {
      problems.push(`${item.path}: missing`);
    }
  }
  return problems;
}

/** Stops a restore before it writes anything, naming up to 20 problems. */
export function refuseDamaged(problems: string[], heading = "The backup is damaged; nothing was restored"): void {
  if (problems.length === 0) return;
  const shown = problems.slice(0, 20).map((p) => `  ${p}`);
  if (problems.length > 20) shown.push(`  … and ${problems.length - 20} more`);
  throw new BackupError(`${heading}:\n${shown.join("\n")}`);
}
