import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { makeTemplates } from "./test-database";

/** `npm test`: one migrated sqlite database for the run, which every test app's database is copied from. */
export default async function setup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-template-"));
  await makeTemplates(dir);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
