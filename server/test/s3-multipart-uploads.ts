import fs from "node:fs";
import path from "node:path";
import type { IncomingMessage, ServerResponse } from "node:http";

/** The part of a Koa context this middleware uses. */
interface Context {
  method: string;
  url: string;
  req: IncomingMessage;
  res: ServerResponse;
  status: number;
  type: string;
  body: unknown;
}
type Middleware = (ctx: Context, next: () => Promise<void>) => Promise<void>;

const xml = (text: string) =>
  text.replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c]!);

/** s3rver's own folder of a bucket's multipart uploads in progress: `<uploadId>/key`, `metadata` and the parts. */
export const uploadsFolderOf = (directory: string, bucket: string) => path.join(directory, bucket, "._S3rver_uploads");

interface InProgress {
  uploadId: string;
  key: string;
  initiated: Date;
}

/** The multipart uploads of a bucket begun and neither completed nor aborted. */
export function uploadsInProgress(directory: string, bucket: string): InProgress[] {
  const folder = uploadsFolderOf(directory, bucket);
  if (!fs.existsSync(folder)) return [];
  return fs.readdirSync(folder).flatMap((uploadId) => {
    const keyFile = path.join(folder, uploadId, "key");
    if (!fs.existsSync(keyFile)) return [];
    return [{ uploadId, key: fs.readFileSync(keyFile, "utf8"), initiated: fs.statSync(keyFile).mtime }];
  });
}

/**
 * What s3rver leaves out of S3's API and Photodrop's sweep of abandoned ZIP uploads needs:
 * ListMultipartUploads (`GET /<bucket>?uploads&prefix=`) and AbortMultipartUpload (`DELETE
 * /<bucket>/<key>?uploadId=`), answered over s3rver's own folder of uploads in progress, as S3
 * answers them (path-style requests, one page).
 */
export function multipartUploadsMiddleware(directory: string): Middleware {
  return async (ctx, next) => {
    const url = new URL(ctx.url, "http://s3");
    const [bucket, ...keyParts] = url.pathname.slice(1).replace(/\/$/, "").split("/").map(decodeURIComponent);
    if (ctx.method === "GET" && keyParts.length === 0 && url.searchParams.has("uploads")) {
      const prefix = url.searchParams.get("prefix") ?? "";
      const uploads = uploadsInProgress(directory, bucket).filter((u) => u.key.startsWith(prefix));
      ctx.type = "application/xml";
      ctx.body =
        `<?xml version="1.0" encoding="UTF-8"?>\n<ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">` +
        `<Bucket>${xml(bucket)}</Bucket><Prefix>${xml(prefix)}</Prefix><MaxUploads>1000</MaxUploads><IsTruncated>false</IsTruncated>` +
        uploads
          .map(
            (u) =>
              `<Upload><Key>${xml(u.key)}</Key><UploadId>${u.uploadId}</UploadId><Initiated>${u.initiated.toISOString()}</Initiated><StorageClass>STANDARD</StorageClass></Upload>`,
          )
          .join("") +
        "</ListMultipartUploadsResult>";
      return;
    }
    const uploadId = url.searchParams.get("uploadId");
    if (ctx.method === "DELETE" && keyParts.length > 0 && uploadId) {
      const upload = uploadsInProgress(directory, bucket).find((u) => u.uploadId === uploadId);
      if (!upload || upload.key !== keyParts.join("/")) {
        ctx.status = 404;
        ctx.type = "application/xml";
        ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message></Error>`;
        return;
      }
      fs.rmSync(path.join(uploadsFolderOf(directory, bucket), uploadId), { recursive: true, force: true });
      ctx.status = 204;
      return;
    }
    await next();
  };
}
