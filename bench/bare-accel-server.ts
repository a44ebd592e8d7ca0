/**
 * The delivery bench's floor for deciding behind a proxy: Node's `http` answering every delivery
 * URL with nothing but `X-Accel-Redirect` to `/_bare/<p|t>/<n>` or `/_bare/all.zip` (no lookup, no
 * check, no log), so nginx in front sends the file. Prints `running at <url>`; ends on SIGTERM.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

const DELIVERY = /^\/d\/[^/]+\/(?:([pt])\/(\d+)|(all\.zip))$/;

const server = http.createServer((req, res) => {
  const match = DELIVERY.exec(req.url ?? "");
  if (!match) {
    res.writeHead(404, { "Content-Length": 0 }).end();
    return;
  }
  const target = match[3] ? "/_bare/all.zip" : `/_bare/${match[1]}/${match[2]}`;
  res.writeHead(200, { "X-Accel-Redirect": target, "Content-Length": 0 }).end();
});
server.listen(0, "127.0.0.1", () =>
  console.log(`running at http://127.0.0.1:${(server.address() as AddressInfo).port}`),
);
process.once("SIGTERM", () => server.close(() => process.exit(0)));
