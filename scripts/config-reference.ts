// Writes docs/configuration.md from the settings in server/config.ts (`npm run docs:config`).
//   --check  write nothing; exit 1 when the page differs from what the code makes
import fs from "node:fs";
import { REFERENCE_FILE, readReference, renderConfigReference } from "../server/config-reference";

const page = await renderConfigReference();
if (process.argv.includes("--check")) {
  const same = fs.existsSync(REFERENCE_FILE) && readReference() === page;
  console.log(same ? "docs/configuration.md is up to date" : "docs/configuration.md differs: run npm run docs:config");
  process.exit(same ? 0 : 1);
}
fs.writeFileSync(REFERENCE_FILE, page);
console.log(`wrote ${REFERENCE_FILE}`);
