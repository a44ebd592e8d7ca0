import { startPgCluster } from "./pg-cluster";
import { makeTemplates, PG_TEST_URL_ENV } from "./test-database";

/** `npm run test:pg`: one throwaway PostgreSQL cluster for the whole run, with the migrated templates; removed afterwards. */
export default async function setup() {
  const cluster = await startPgCluster();
  let removeTemplates: () => void;
  try {
    removeTemplates = await makeTemplates(cluster.url);
  } catch (err) {
    cluster.stop();
    throw err;
  }
  process.env[PG_TEST_URL_ENV] = cluster.url;
  return () => {
    cluster.stop();
    removeTemplates();
  };
}
