import { startPgCluster } from "./pg-cluster";
import { PG_TEST_URL_ENV } from "./test-database";

/** `npm run test:pg`: one throwaway PostgreSQL cluster for the whole run, removed afterwards. */
export default async function setup() {
  const cluster = await startPgCluster();
  process.env[PG_TEST_URL_ENV] = cluster.url;
  return () => cluster.stop();
}
