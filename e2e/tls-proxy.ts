import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import os from "node:os";
import path from "node:path";

export interface TlsProxy {
  port: number;
  /** How many answers the proxy has held back so far (see `hold`). */
  held(): number;
  close(): Promise<void>;
}

/** Answers to GET requests whose path and query match are passed on `ms` after the server gave them: a slow link. */
export interface Hold {
  path: RegExp;
  ms: number;
}

/** A throwaway certificate for `name`, valid for a day (browsers are told to ignore whose it is). */
function throwawayCertificate(name: string): { key: Buffer; cert: Buffer } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-tls-"));
  try {
    const [key, cert] = [path.join(dir, "key.pem"), path.join(dir, "cert.pem")];
    execFileSync(
      "openssl",
      ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", `/CN=${name}`, "-days", "1"].concat([
        "-keyout",
        key,
        "-out",
        cert,
      ]),
      { stdio: "ignore" },
    );
    return { key: fs.readFileSync(key), cert: fs.readFileSync(cert) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The client's request headers as the upstream sees them from a TLS proxy: X-Forwarded-Proto and -For added. */
function forwarded(req: http.IncomingMessage): string[] {
  const raw = req.rawHeaders.filter((_, i, all) => !/^x-forwarded-/i.test(all[i - (i % 2)]));
  return [...raw, "X-Forwarded-Proto", "https", "X-Forwarded-For", req.socket.remoteAddress ?? "127.0.0.1"];
}

/**
 * An HTTPS server on loopback terminating TLS for `upstream` (plain HTTP), as nginx or Caddy
 * would in front of Photodrop: requests and WebSocket upgrades are passed on with
 * X-Forwarded-Proto: https, which the server believes under TRUST_PROXY=loopback.
 */
export async function startTlsProxy(upstream: string, name = "studio.lan", hold?: Hold): Promise<TlsProxy> {
  const target = new URL(upstream);
  let held = 0;
  const server = https.createServer(throwawayCertificate(name), (req, res) => {
    const proxied = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: forwarded(req) },
      (answer) => {
        const pass = () => {
          res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
          answer.pipe(res);
        };
        if (!hold || req.method !== "GET" || !hold.path.test(req.url ?? "")) return pass();
        held += 1;
        setTimeout(pass, hold.ms);
      },
    );
    proxied.on("error", () => res.destroy());
    req.pipe(proxied);
  });
  const upgraded = new Set<net.Socket>();
  server.on("upgrade", (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    upgraded.add(socket);
    socket.once("close", () => upgraded.delete(socket));
    const upstreamSocket = net.connect(Number(target.port), target.hostname, () => {
      const headers = forwarded(req);
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < headers.length; i += 2) lines.push(`${headers[i]}: ${headers[i + 1]}`);
      upstreamSocket.write(`${lines.join("\r\n")}\r\n\r\n`);
      upstreamSocket.write(head);
      socket.pipe(upstreamSocket).pipe(socket);
    });
    const end = () => {
      socket.destroy();
      upstreamSocket.destroy();
    };
    socket.on("error", end);
    upstreamSocket.on("error", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    held: () => held,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of upgraded) socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
