import crypto from "node:crypto";

/** Set by `npm run test:s3`'s global setup: the S3 variables of its server, as JSON. */
export const S3_TEST_ENV = "PHOTODROP_TEST_S3";

/** Whether this run keeps files in object storage (`npm run test:s3`). */
export const inObjectStorage = () => Boolean(process.env[S3_TEST_ENV]);

/**
 * The storage variables of one test app: under `npm run test:s3` a fresh prefix in the run's
 * bucket, otherwise none (the app's temp folders). A test's own STORAGE_URL wins.
 */
export function testStorageEnv(env: Record<string, string>): Record<string, string> {
  const s3 = process.env[S3_TEST_ENV];
  if (!s3 || "STORAGE_URL" in env) return {};
  const vars = JSON.parse(s3) as Record<string, string>;
  return { ...vars, STORAGE_URL: `${vars.STORAGE_URL}${crypto.randomBytes(8).toString("hex")}` };
}
