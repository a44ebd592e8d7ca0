import { HeadBucketCommand, S3Client } from "@aws-sdk/client-s3";
import type { StorageConfig } from "../config";

type S3Storage = Extract<StorageConfig, { kind: "s3" }>;

export function s3ClientFor(storage: S3Storage): S3Client {
  return new S3Client({
    endpoint: storage.endpoint,
    region: storage.region,
    forcePathStyle: storage.forcePathStyle,
    credentials: storage.credentials && {
      accessKeyId: storage.credentials.accessKeyId,
      secretAccessKey: storage.credentials.secretAccessKey,
    },
    // Checksums only where S3 requires them: MinIO, Ceph, B2 and older servers refuse the newer
    // default trailing checksums of streamed bodies.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
}

/** What stops a start: a bucket that does not exist or credentials refused, naming the setting. */
export async function bucketProblem(storage: S3Storage): Promise<string | undefined> {
  const client = s3ClientFor(storage);
  try {
    await client.send(new HeadBucketCommand({ Bucket: storage.bucket }));
    return undefined;
  } catch (err) {
    const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
    const status = e.$metadata?.httpStatusCode;
    if (status === 404 || e.name === "NotFound" || e.name === "NoSuchBucket")
      return `The bucket ${storage.bucket} in STORAGE_URL does not exist`;
    if (status === 403 || status === 401)
      return storage.credentials
        ? "S3_ACCESS_KEY_ID/S3_SECRET_ACCESS_KEY were refused by the storage"
        : `The storage refused access to bucket ${storage.bucket}: set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY`;
    if (status === 301 || status === 400)
      return `The storage answered ${status} for bucket ${storage.bucket}: check S3_REGION, S3_ENDPOINT and S3_FORCE_PATH_STYLE`;
    return `Cannot reach the storage${storage.endpoint ? ` at S3_ENDPOINT ${storage.endpoint}` : ""}: ${e.message ?? e.name}`;
  } finally {
    client.destroy();
  }
}
