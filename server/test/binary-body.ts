/** Reading answers as bytes in tests: supertest only buffers text and JSON by default. */
import request from "supertest";

/** supertest's parser for a body of any type, collected into one Buffer. */
const binary = (res: request.Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on("data", (c: Buffer) => chunks.push(c));
  res.on("end", () => cb(null, Buffer.concat(chunks)));
};

/** A GET of `app` (an app, a server or a URL) whose body is collected as bytes, whatever its type. */
export const getBinary = (app: Parameters<typeof request>[0], url: string, headers: Record<string, string> = {}) =>
  request(app).get(url).set(headers).buffer(true).parse(binary);

/** One file as a multipart/form-data body under `field`, and the Content-Type header that goes with it. */
export function multipartFile(field: string, filename: string, type: string, bytes: Buffer) {
  const boundary = "----photodrop-test";
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}
