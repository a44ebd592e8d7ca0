import type { Config } from "../config";
import { DiskStore } from "./disk-store";
import { dataFileModes } from "./file-modes";
import type { ObjectStore } from "./object-store";
import { uploadsTempRoot } from "./paths";
import { bucketProblem, loadS3Sdk, s3ClientFor } from "./s3-client";
import { S3Store } from "./s3-store";

/** The two places files are kept: photos and their renditions, and the published ZIPs. */
export interface Stores {
  uploads: ObjectStore;
  published: ObjectStore;
}

const stores = new WeakMap<Config, Stores>();

/**
 * The stores a configuration names. The folders are made on first use; object storage once
 * `openStores` has run (at start), so the AWS SDK is only loaded by a studio that uses it.
 */
export function storesOf(config: Config): Stores {
  let found = stores.get(config);
  if (!found) {
    if (config.storage.kind !== "disk") throw new Error("object storage is used before openStores()");
    const modes = dataFileModes(config);
    found = {
      uploads: new DiskStore(config.uploadsDir, uploadsTempRoot(config), modes),
      published: new DiskStore(config.publishedDir, undefined, modes),
    };
    stores.set(config, found);
  }
  return found;
}

/** Makes the stores of a configuration ready (one per configuration: tests run several apps in one process). */
export async function openStores(config: Config): Promise<Stores> {
  const { storage } = config;
  if (storage.kind === "disk" || stores.has(config)) return storesOf(config);
  const sdk = await loadS3Sdk();
  const client = s3ClientFor(sdk, storage);
  const opened = {
    uploads: new S3Store(sdk, client, storage.bucket, `${storage.prefix}uploads/`, storage.presignedDownloadSeconds),
    published: new S3Store(
      sdk,
      client,
      storage.bucket,
      `${storage.prefix}published/`,
      storage.presignedDownloadSeconds,
    ),
  };
  stores.set(config, opened);
  return opened;
}

/**
 * At start, in object storage: the bucket must exist and the credentials be accepted, or the
 * start stops with what to fix, naming the setting. Answers nothing for the folders.
 */
export async function storageProblem(config: Config): Promise<string | undefined> {
  if (config.storage.kind === "disk") return undefined;
  return bucketProblem(config.storage);
}
