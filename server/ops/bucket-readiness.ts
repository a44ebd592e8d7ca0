import type { StorageConfig } from "../config";
import { loadS3Sdk, s3ClientFor } from "../storage/s3-client";

type S3Storage = Extract<StorageConfig, { kind: "s3" }>;

/**
 * Whether the bucket of STORAGE_URL answers a HeadBucket (the question the start asks) within
 * `timeoutMs`: "ok", or what went wrong by status or error code, never the endpoint or a key.
 */
export async function checkBucket(storage: S3Storage, timeoutMs: number): Promise<string> {
  const sdk = await loadS3Sdk();
  const client = s3ClientFor(sdk, storage);
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  try {
    await client.send(new sdk.HeadBucketCommand({ Bucket: storage.bucket }), { abortSignal: abort.signal });
    return "ok";
  } catch (err) {
    if (abort.signal.aborted) return `bucket: no answer within ${timeoutMs} ms`;
    const e = err as { name?: string; code?: string; $metadata?: { httpStatusCode?: number } };
    const status = e.$metadata?.httpStatusCode;
    if (status === 404) return "bucket not found (404)";
    if (status) return `bucket answered ${status}`;
    return `bucket unreachable (${e.code ?? e.name ?? "error"})`;
  } finally {
    clearTimeout(timer);
    client.destroy();
  }
}
