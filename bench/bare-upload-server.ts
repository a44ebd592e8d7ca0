/**
 * The upload bench's baseline: a bare express-fileupload handler that only receives each file into
 * a temp file (the library's default hash while it arrives) and renames it into a folder. Started
 * by bench/upload.ts as its own process; prints the line `running at <url>` and serves
 * POST /upload (field `file`) until SIGTERM.
 */
import crypto from "node:crypto";
import fsp from "node:fs/promises";
import path from "node:path";
import type { AddressInfo } from "node:net";
import express from "express";
import fileUpload, { type UploadedFile } from "express-fileupload";

const dir = process.argv[2];
if (!dir) throw new Error("usage: bare-upload-server.ts <folder>");
const tmp = path.join(dir, ".tmp");
await fsp.mkdir(tmp, { recursive: true });

const app = express();
app.post("/upload", fileUpload({ useTempFiles: true, tempFileDir: tmp }), async (req, res) => {
  const file = req.files?.file as UploadedFile | undefined;
  if (!file) return void res.status(400).json({ message: "No file uploaded" });
  await fsp.rename(file.tempFilePath, path.join(dir, crypto.randomBytes(16).toString("hex")));
  res.status(201).json({ size: file.size, checksum: file.md5 });
});
const server = app.listen(0, "127.0.0.1", () =>
  console.log(`running at http://127.0.0.1:${(server.address() as AddressInfo).port}`),
);
process.once("SIGTERM", () => server.close(() => process.exit(0)));
