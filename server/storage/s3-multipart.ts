import type { S3Client } from "@aws-sdk/client-s3";
import type { S3Sdk } from "./s3-client";

/** CopyObject copies at most 5 GiB; a larger object is copied by ranges into a multipart upload. */
const SINGLE_COPY_LIMIT = 5 * 1024 ** 3;
const COPY_PART_SIZE = 1024 ** 3;

interface Bucket {
  sdk: S3Sdk;
  client: S3Client;
  bucket: string;
}

const copySource = (bucket: string, key: string) =>
  `${bucket}/${key
    .split("/")
    .map((part) => encodeURIComponent(part))
    .join("/")}`;

/** Copies one object (of `size` bytes) to another key of the same bucket, whole or not at all. */
export async function copyObject({ sdk, client, bucket }: Bucket, from: string, to: string, size: number) {
  const CopySource = copySource(bucket, from);
  if (size <= SINGLE_COPY_LIMIT) {
    await client.send(new sdk.CopyObjectCommand({ Bucket: bucket, Key: to, CopySource }));
    return;
  }
  const { UploadId } = await client.send(new sdk.CreateMultipartUploadCommand({ Bucket: bucket, Key: to }));
  try {
    const parts: Array<{ PartNumber: number; ETag?: string }> = [];
    for (let start = 0, n = 1; start < size; start += COPY_PART_SIZE, n++) {
      const end = Math.min(size, start + COPY_PART_SIZE) - 1;
      const answer = await client.send(
        new sdk.UploadPartCopyCommand({
          Bucket: bucket,
          Key: to,
          UploadId,
          PartNumber: n,
          CopySource,
          CopySourceRange: `bytes=${start}-${end}`,
        }),
      );
      parts.push({ PartNumber: n, ETag: answer.CopyPartResult?.ETag });
    }
    await client.send(
      new sdk.CompleteMultipartUploadCommand({ Bucket: bucket, Key: to, UploadId, MultipartUpload: { Parts: parts } }),
    );
  } catch (err) {
    await client.send(new sdk.AbortMultipartUploadCommand({ Bucket: bucket, Key: to, UploadId })).catch(() => {});
    throw err;
  }
}

/**
 * Aborts the multipart uploads under `prefix` initiated before `startedBefore`, except those whose
 * key `keep` answers true for; answers how many it aborted. Throws what the server answers to
 * ListMultipartUploads (a server that does not implement it answers NotImplemented).
 */
export async function abortUploadsBefore(
  { sdk, client, bucket }: Bucket,
  prefix: string,
  startedBefore: Date,
  keep: (key: string) => boolean,
): Promise<number> {
  let aborted = 0;
  let KeyMarker: string | undefined;
  let UploadIdMarker: string | undefined;
  do {
    const page = await client.send(
      new sdk.ListMultipartUploadsCommand({ Bucket: bucket, Prefix: prefix, KeyMarker, UploadIdMarker }),
    );
    for (const upload of page.Uploads ?? []) {
      const { Key, UploadId, Initiated } = upload;
      if (!Key || !UploadId || !Initiated || Initiated >= startedBefore || keep(Key)) continue;
      await client.send(new sdk.AbortMultipartUploadCommand({ Bucket: bucket, Key, UploadId }));
      aborted++;
    }
    KeyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
    UploadIdMarker = page.IsTruncated ? page.NextUploadIdMarker : undefined;
  } while (KeyMarker);
  return aborted;
}
