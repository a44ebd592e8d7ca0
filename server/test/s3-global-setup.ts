import { startS3Server } from "./s3-server";
import { makeTemplates } from "./test-database";
import { S3_TEST_ENV } from "./test-storage";

/**
 * `npm run test:s3`: one S3 protocol server for the whole run (every test app gets a prefix of
 * its own in its bucket) and the migrated sqlite template the apps' databases are copied from.
 */
export default async function setup() {
  const removeTemplates = await makeTemplates();
  const server = await startS3Server();
  process.env[S3_TEST_ENV] = JSON.stringify(server.env(""));
  return async () => {
    await server.stop();
    removeTemplates();
  };
}
