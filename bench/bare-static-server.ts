/**
 * The delivery bench's bare baseline: express.static with its defaults (ETag, Last-Modified,
 * Range, 64 kB reads) over a folder, nothing else. Prints `running at <url>`; ends on SIGTERM.
 */
import type { AddressInfo } from "node:net";
import express from "express";

const dir = process.argv[2];
if (!dir) throw new Error("usage: bare-static-server.ts <folder>");
const app = express();
app.use(express.static(dir));
const server = app.listen(0, "127.0.0.1", () =>
  console.log(`running at http://127.0.0.1:${(server.address() as AddressInfo).port}`),
);
process.once("SIGTERM", () => server.close(() => process.exit(0)));
