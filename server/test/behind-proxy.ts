import { execFileSync } from "node:child_process";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { attachEventsServer } from "../events/events-server";
import type { TestApp } from "./harness";

/** What a proxy in front of Photodrop answered, its body whole. */
export interface ProxyAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** One HTTPS request (the proxy's certificate is the test's own, so it is not checked). */
export function httpsAnswer(
  url: string | URL,
  options: https.RequestOptions,
  body?: string | Buffer,
): Promise<ProxyAnswer> {
  return new Promise<ProxyAnswer>((resolve, reject) => {
    const req = https.request(url, { ...options, rejectUnauthorized: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** A throwaway certificate for `name` in `dir` (cert.pem, key.pem), valid for a day. */
export function selfSignedCertificate(dir: string, name: string): { cert: string; key: string } {
  const files = { cert: path.join(dir, "cert.pem"), key: path.join(dir, "key.pem") };
  execFileSync(
    "openssl",
    [
      ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", `/CN=${name}`, "-days", "1"],
      ...["-addext", `subjectAltName=DNS:${name}`],
      ...["-keyout", files.key, "-out", files.cert],
    ],
    { stdio: "pipe" },
  );
  return files;
}

/** The test app on a loopback port with its /events server, as a proxy's upstream. */
export async function listenUpstream(t: TestApp) {
  const server = http.createServer(t.app);
  const hub = attachEventsServer(server, t.ctx);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    server,
    port: (server.address() as AddressInfo).port,
    async close() {
      await hub.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
