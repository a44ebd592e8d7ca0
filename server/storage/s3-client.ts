import type { S3Client } from "@aws-sdk/client-s3";
import type { StorageConfig } from "../config";

type S3Storage = Extract<StorageConfig, { kind: "s3" }>;

/** The AWS SDK's parts Photodrop uses. */
export type S3Sdk = typeof import("@aws-sdk/client-s3") &
  Pick<typeof import("@aws-sdk/lib-storage"), "Upload"> &
  Pick<typeof import("@aws-sdk/s3-request-presigner"), "getSignedUrl">;

let loading: Promise<S3Sdk> | undefined;
/**
 * The AWS SDK, loaded on first use by import() (which the production bundle keeps as one, unlike
 * a static import it would hoist): a studio on disk never pays its start time and memory.
 */
export function loadS3Sdk(): Promise<S3Sdk> {
  loading ??= Promise.all([
    import("@aws-sdk/client-s3"),
    import("@aws-sdk/lib-storage"),
    import("@aws-sdk/s3-request-presigner"),
  ]).then(([client, lib, presigner]) => ({ ...client, Upload: lib.Upload, getSignedUrl: presigner.getSignedUrl }));
  return loading;
}

export function s3ClientFor(sdk: S3Sdk, storage: S3Storage): S3Client {
  return new sdk.S3Client({
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
  const sdk = await loadS3Sdk();
  const client = s3ClientFor(sdk, storage);
  try {
    await client.send(new sdk.HeadBucketCommand({ Bucket: storage.bucket }));
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
