import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnPhotodrop, dataFolders } from "./app-process";
import { stopProcess } from "../../e2e/server-process";
import knex from "knex";
import { freePort, onFreePorts, portsListenedBy } from "./free-port";
import { startNginxOnFreePorts } from "./nginx";
import { noCaddyHere, startCaddy } from "./caddy";
import { startPgCluster } from "./pg-cluster";

let dir: string;
let squatter: net.Server;
let taken: number;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-free-port-"));
  // Another suite's process, holding the port before ours binds it.
  squatter = net.createServer((socket) => socket.end("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"));
  await new Promise<void>((resolve) => squatter.listen(0, "127.0.0.1", resolve));
  taken = (squatter.address() as net.AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => squatter.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Picks the taken port first, as freePort would have if another process had bound it after probing. */
function takenFirst(): { pick: () => Promise<number>; picked: number[] } {
  const picked: number[] = [];
  return {
    picked,
    async pick() {
      const port = picked.length === 0 ? taken : await freePort();
      picked.push(port);
      return port;
    },
  };
}

describe("a start on a port another process took after it was picked", () => {
  it("sees which ports a process itself listens on", () => {
    expect(portsListenedBy(process.pid)).toContain(taken);
    expect(portsListenedBy(process.pid)).not.toContain(0);
  });

  it("brings a Photodrop process up on another port, and its banner, not the port, says it is there", async () => {
    const { pick, picked } = takenFirst();
    const app = await spawnPhotodrop(
      ["--import", "tsx", "server/index.ts"],
      () => ({
        PATH: process.env.PATH ?? "",
        SEED_DEMO: "0",
        LOG_LEVEL: "warn",
        DATABASE_URL: path.join(dir, "photodrop.sqlite3"),
        ...dataFolders(dir),
      }),
      { pick },
    );
    try {
      expect(picked[0]).toBe(taken);
      expect(picked).toHaveLength(2);
      expect(app.port).toBe(picked[1]);
      expect(portsListenedBy(app.child.pid!)).toContain(app.port);
      const health = await fetch(`${app.url}/healthz`);
      expect(await health.json()).toMatchObject({ status: "ok" });
    } finally {
      await stopProcess(app.child);
    }
  }, 120_000);

  it("tries again only when the port was taken, a few times at most", async () => {
    let starts = 0;
    const alwaysTaken = onFreePorts(2, async () => {
      starts++;
      throw new Error("listen EADDRINUSE: address already in use");
    });
    await expect(alwaysTaken).rejects.toThrow(/EADDRINUSE/);
    expect(starts).toBe(5);
    starts = 0;
    await expect(
      onFreePorts(1, async () => {
        starts++;
        throw new Error("bad configuration");
      }),
    ).rejects.toThrow("bad configuration");
    expect(starts).toBe(1);
    const ports = await onFreePorts(3, async (given) => given);
    expect(new Set(ports).size).toBe(3);
  });
});

describe("a proxy or database started on a port another process took after it was picked", () => {
  it("brings nginx up on other ports, and knows it is nginx listening there", async () => {
    const { pick, picked } = takenFirst();
    const { nginx, ports } = await startNginxOnFreePorts(
      path.join(dir, "nginx"),
      2,
      (ports) => ports.map((port) => `server { listen 127.0.0.1:${port}; return 204; }`).join("\n"),
      { pick },
    );
    try {
      expect(picked[0]).toBe(taken);
      expect(ports).not.toContain(taken);
      expect(nginx.errors()).not.toMatch(/Address already in use/);
      for (const port of ports) expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(204);
    } finally {
      await nginx.stop();
    }
  }, 60_000);

  it.skipIf(noCaddyHere)(
    "brings Caddy up on other ports",
    async () => {
      const { pick, picked } = takenFirst();
      const caddy = await startCaddy(path.join(dir, "caddy"), "127.0.0.1 {\n\ttls internal\n\trespond 204\n}\n", pick);
      try {
        expect(picked[0]).toBe(taken);
        expect([caddy.ports.http, caddy.ports.https]).not.toContain(taken);
        const plain = await fetch(`http://127.0.0.1:${caddy.ports.http}/`, { redirect: "manual" });
        expect(plain.status).toBe(308);
      } finally {
        await caddy.stop();
      }
    },
    60_000,
  );

  it("brings a PostgreSQL cluster up on another port", async () => {
    const { pick, picked } = takenFirst();
    const cluster = await startPgCluster(pick);
    try {
      expect(picked[0]).toBe(taken);
      expect(new URL(cluster.url).port).toBe(String(picked[1]));
      const db = knex({ client: "pg", connection: cluster.url });
      try {
        expect((await db.raw("select 1 as one")).rows).toEqual([{ one: 1 }]);
      } finally {
        await db.destroy();
      }
    } finally {
      cluster.stop();
    }
  }, 120_000);
});
