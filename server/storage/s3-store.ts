import fs from "node:fs";
import fsp from "node:fs/promises";
import { PassThrough, type Readable } from "node:stream";
import type { S3Client } from "@aws-sdk/client-s3";
import type { S3Sdk } from "./s3-client";
import type {
  ByteRange,
  DownloadAnswer,
  ListedObject,
  ObjectStat,
  ObjectStore,
  ObjectWriter,
  PutOptions,
} from "./object-store";
import { StorageNotFoundError } from "./object-store";
import { abortUploadsBefore, copyObject } from "./s3-multipart";

/** Parts of a multipart upload: S3's least is 5 MiB; 8 MiB, four in flight, holds 32 MiB per upload at most. */
export const PART_SIZE = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 4;
/** DeleteObjects takes at most this many keys a request. */
const DELETE_BATCH = 1000;

const notFound = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === "NoSuchKey" || e.name === "NotFound" || e.$metadata?.httpStatusCode === 404;
};

/**
 * Objects in a bucket under one prefix (`<STORAGE_URL's prefix>uploads/`, `…published/`), through
 * the AWS SDK: a body of unknown length, or one larger than a part, goes up as a multipart upload
 * (lib-storage's Upload), which is aborted when it fails, so no object and no parts are left.
 */
export class S3Store implements ObjectStore {
  readonly kind = "s3";

  constructor(
    private readonly sdk: S3Sdk,
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly prefix: string,
    /** Seconds a presigned download lives; 0: none are made. */
    private readonly presignSeconds = 0,
  ) {}

  /** This store's bucket, as the multipart helpers (s3-multipart.ts) take it. */
  private onBucket() {
    return { sdk: this.sdk, client: this.client, bucket: this.bucket };
  }

  private objectKey(key: string): string {
    if (key.startsWith("/") || key.split("/").some((part) => part === ".." || part === "."))
      throw new Error(`storage key escapes its prefix: ${key}`);
    return `${this.prefix}${key}`;
  }

  localFile(): undefined {
    return undefined;
  }

  private upload(key: string, body: Readable, options: PutOptions = {}) {
    return new this.sdk.Upload({
      client: this.client,
      params: {
        Bucket: this.bucket,
        Key: this.objectKey(key),
        Body: body,
        ContentType: options.contentType,
        Metadata: options.sha256 ? { sha256: options.sha256 } : undefined,
      },
      partSize: PART_SIZE,
      queueSize: PARTS_IN_FLIGHT,
      leavePartsOnError: false,
    });
  }

  /**
   * Ends a multipart upload so that nothing of it is left once this resolves. lib-storage's own
   * abort() settles `done` at once and sends AbortMultipartUpload later, in the background (or
   * never, if the process ends first); so it is sent here too, after the upload has stopped. The
   * second of the two is a harmless NoSuchUpload.
   */
  private async abortUpload(key: string, upload: ReturnType<S3Store["upload"]>, done: Promise<unknown>) {
    await upload.abort().catch(() => undefined);
    await done.catch(() => undefined);
    if (!upload.uploadId) return;
    const command = new this.sdk.AbortMultipartUploadCommand({
      Bucket: this.bucket,
      Key: this.objectKey(key),
      UploadId: upload.uploadId,
    });
    await this.client.send(command).catch(() => undefined);
  }

  async put(key: string, body: Readable, options?: PutOptions): Promise<void> {
    const upload = this.upload(key, body, options);
    const done = upload.done();
    // A source that fails mid-way must fail the upload, not leave it waiting for more bytes.
    const failed = new Promise<never>((_resolve, reject) => body.once("error", reject));
    failed.catch(() => undefined);
    try {
      await Promise.race([done, failed]);
    } catch (err) {
      await this.abortUpload(key, upload, done);
      throw err;
    }
  }

  async moveFileIn(key: string, file: string, options?: PutOptions): Promise<void> {
    const source = fs.createReadStream(file);
    try {
      await this.put(key, source, options);
    } finally {
      source.destroy();
    }
    await fsp.rm(file, { force: true });
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    try {
      const answer = await this.client.send(
        new this.sdk.GetObjectCommand({
          Bucket: this.bucket,
          Key: this.objectKey(key),
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      return answer.Body as Readable;
    } catch (err) {
      throw notFound(err) ? new StorageNotFoundError(key) : err;
    }
  }

  async presignedDownload(key: string, answer: DownloadAnswer): Promise<string | undefined> {
    if (this.presignSeconds <= 0) return undefined;
    // A link to nothing would send the client the storage's own error page instead of our 404.
    if (!(await this.stat(key))) throw new StorageNotFoundError(key);
    const command = new this.sdk.GetObjectCommand({
      Bucket: this.bucket,
      Key: this.objectKey(key),
      ResponseContentType: answer.contentType,
      ResponseContentDisposition: answer.contentDisposition,
    });
    return this.sdk.getSignedUrl(this.client, command, { expiresIn: this.presignSeconds });
  }

  async stat(key: string): Promise<ObjectStat | undefined> {
    try {
      const head = await this.client.send(
        new this.sdk.HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }),
      );
      return {
        size: head.ContentLength ?? 0,
        mtime: head.LastModified ?? new Date(0),
        sha256: head.Metadata?.sha256,
      };
    } catch (err) {
      if (notFound(err)) return undefined;
      throw err;
    }
  }

  async remove(...keys: string[]): Promise<void> {
    await this.removeObjects(keys.map((key) => this.objectKey(key)));
  }

  private async removeObjects(objectKeys: string[]): Promise<void> {
    for (let i = 0; i < objectKeys.length; i += DELETE_BATCH) {
      const batch = objectKeys.slice(i, i + DELETE_BATCH);
      const answer = await this.client.send(
        new this.sdk.DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      const failures = (answer.Errors ?? []).filter((e) => e.Code !== "NoSuchKey");
      if (failures.length > 0) throw new Error(`could not remove ${failures[0].Key}: ${failures[0].Code}`);
    }
  }

  async removePrefix(prefix: string): Promise<void> {
    if (!prefix.endsWith("/")) throw new Error(`a prefix to remove names a folder: ${prefix}`);
    const keys: string[] = [];
    for await (const object of this.list(prefix)) keys.push(this.objectKey(object.key));
    await this.removeObjects(keys);
  }

  async *list(prefix: string): AsyncIterable<ListedObject> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new this.sdk.ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: this.objectKey(prefix),
          ContinuationToken: token,
        }),
      );
      for (const o of page.Contents ?? [])
        if (o.Key)
          yield { key: o.Key.slice(this.prefix.length), size: o.Size ?? 0, mtime: o.LastModified ?? new Date(0) };
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async rename(from: string, to: string): Promise<void> {
    const stat = await this.stat(from);
    if (!stat) throw new StorageNotFoundError(from);
    await copyObject(this.onBucket(), this.objectKey(from), this.objectKey(to), stat.size);
    await this.remove(from);
  }

  abortUnfinishedWriters(prefix: string, startedBefore: Date, keep: (key: string) => boolean): Promise<number> {
    return abortUploadsBefore(this.onBucket(), this.objectKey(prefix), startedBefore, (key) =>
      keep(key.slice(this.prefix.length)),
    );
  }

  createWriter(key: string, options?: PutOptions): ObjectWriter {
    const stream = new PassThrough({ highWaterMark: PART_SIZE });
    const upload = this.upload(key, stream, options);
    const done = upload.done();
    done.catch(() => undefined);
    return {
      stream,
      complete: async () => {
        stream.end();
        await done;
      },
      abort: async () => {
        // Failing the body, rather than upload.abort() (which settles `done` at once), has the SDK
        // send AbortMultipartUpload before `done` settles: nothing is left once this resolves.
        stream.destroy(new Error("the object was aborted"));
        await done.catch(() => undefined);
      },
    };
  }
}
