import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startPgCluster } from "./pg-cluster";
import { makeTemplates, PG_TEST_URL_ENV } from "./test-database";

/** `npm run test:pg`: one throwaway PostgreSQL cluster for the whole run, with the migrated templates; removed afterwards. */
export default async function setup() {
  const cluster = await startPgCluster();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-template-"));
  const stop = () => {
    cluster.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await makeTemplates(dir, cluster.url);
  } catch (err) {
    stop();
    throw err;
  }
  process.env[PG_TEST_URL_ENV] = cluster.url;
  return stop;
}
