import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnPhotodrop, dataFolders } from "./app-process";
import { stopProcess } from "../../e2e/server-process";
import { onFreePorts, portsListenedBy } from "./free-port";
import { startNginxOnFreePorts } from "./nginx";
import { noCaddyHere, startCaddy } from "./caddy";
import { squatOnAPort, takenFirst } from "./taken-port";

let dir: string;
let taken: number;
let release: () => Promise<void>;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-free-port-"));
  ({ taken, release } = await squatOnAPort());
});

afterAll(async () => {
  await release();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("a start on a port another process took after it was picked", () => {
  it("sees which ports a process itself listens on", () => {
    expect(portsListenedBy(process.pid)).toContain(taken);
    expect(portsListenedBy(process.pid)).not.toContain(0);
  });

  it("brings a Photodrop process up on another port, and its banner, not the port, says it is there", async () => {
    const { pick, picked } = takenFirst(taken);
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
    const { pick, picked } = takenFirst(taken);
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
      const { pick, picked } = takenFirst(taken);
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
});
