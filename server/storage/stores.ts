import { HeadBucketCommand, S3Client } from "@aws-sdk/client-s3";
import type { Config, StorageConfig } from "../config";
import { DiskStore } from "./disk-store";
import type { ObjectStore } from "./object-store";
import { uploadsTempRoot } from "./paths";
import { S3Store } from "./s3-store";

/** The two places files are kept: photos and their renditions, and the published ZIPs. */
export interface Stores {
  uploads: ObjectStore;
  published: ObjectStore;
}

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

const stores = new WeakMap<Config, Stores>();

/** The stores a configuration names, made once per configuration (tests run several apps in one process). */
export function storesOf(config: Config): Stores {
  let found = stores.get(config);
  if (!found) {
    const { storage } = config;
    if (storage.kind === "disk") {
      found = {
        uploads: new DiskStore(config.uploadsDir, uploadsTempRoot(config)),
        published: new DiskStore(config.publishedDir),
      };
    } else {
      const client = s3ClientFor(storage);
      found = {
        uploads: new S3Store(client, storage.bucket, `${storage.prefix}uploads/`),
        published: new S3Store(client, storage.bucket, `${storage.prefix}published/`),
      };
    }
    stores.set(config, found);
  }
  return found;
}

/**
 * At start, in object storage: the bucket must exist and the credentials be accepted, or the
 * start stops with what to fix, naming the setting. Answers nothing for the folders.
 */
export async function storageProblem(config: Config): Promise<string | undefined> {
  const { storage } = config;
  if (storage.kind === "disk") return undefined;
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
