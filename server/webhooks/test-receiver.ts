/** A real HTTP receiver on loopback for the webhook tests: records every request, answers the statuses queued. */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  /** Came while holding: never answered. */
  held: boolean;
  json: { type: string; timestamp: string; data: Record<string, unknown> };
}

export interface Receiver {
  /** `http://127.0.0.1:<port>` (or `localhost` with `host`). */
  url(path?: string, host?: string): string;
  received: Received[];
  /** Connections opened to it, answered or not. */
  connections: number;
  /** The statuses the next requests get, in order; then 200. */
  answers: number[];
  /** While true, requests are recorded and never answered (a process killed mid-send). */
  holding: boolean;
  /** Each answer waits this long (a slow receiver keeps sends in flight across the senders' polls). */
  delayMs: number;
  /** Requests received and waiting for their (delayed) answer; held ones not counted. */
  answering: number;
  ofType(type: string): Received[];
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const answers: number[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      received.push({
        path: req.url ?? "",
        headers,
        body,
        json: JSON.parse(body) as Received["json"],
        held: it.holding,
      });
      if (it.holding) return;
      const status = answers.shift() ?? 200;
      it.answering += 1;
      const answer = () => {
        it.answering -= 1;
        res.writeHead(status, { "content-type": "text/plain" }).end(status === 200 ? "thanks" : `no: ${status}`);
      };
      if (it.delayMs > 0) setTimeout(answer, it.delayMs);
      else answer();
    });
  });
  server.on("connection", () => (it.connections += 1));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const it: Receiver = {
    holding: false,
    delayMs: 0,
    answering: 0,
    url: (path = "/hook", host = "127.0.0.1") => `http://${host}:${port}${path}`,
    received,
    connections: 0,
    answers,
    ofType: (type) => received.filter((r) => r.json.type === type),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return it;
}
