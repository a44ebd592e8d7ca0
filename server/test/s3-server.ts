import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { multipartUploadsMiddleware, uploadsInProgress } from "./s3-multipart-uploads";

/** s3rver's fixed key pair: it checks every request's signature against it. */
export const S3_TEST_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

export interface TestS3Server {
  endpoint: string;
  bucket: string;
  /** The variables that point Photodrop at `s3://<bucket>/<prefix>` on this server. */
  env(prefix: string): Record<string, string>;
  /** The keys of the multipart uploads begun and neither completed nor aborted. */
  uploadsInProgress(): string[];
  stop(): Promise<void>;
}

/**
 * A real S3 protocol server (s3rver: S3's REST API over HTTP, objects in a temp folder) on a
 * random loopback port, with one bucket; listing and aborting multipart uploads added
 * (s3-multipart-uploads.ts).
 */
export async function startS3Server(bucket = "photodrop-test"): Promise<TestS3Server> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-s3-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  // Ahead of s3rver's own routes, which answer these two NotImplemented.
  server.middleware.unshift(multipartUploadsMiddleware(directory));
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    uploadsInProgress: () => uploadsInProgress(directory, bucket).map((u) => u.key),
    env: (prefix) => ({
      STORAGE_URL: `s3://${bucket}/${prefix}`,
      S3_ENDPOINT: endpoint,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: S3_TEST_CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: S3_TEST_CREDENTIALS.secretAccessKey,
      S3_FORCE_PATH_STYLE: "1",
    }),
    async stop() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
