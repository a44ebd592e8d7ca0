import fs from "node:fs";
import net from "node:net";

/** A port nobody listens on right now (another process may take it before it is used: see onFreePorts). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

const ATTEMPTS = 5;

/** An error a start threw because a port it was given was bound already (its message carries the process's log). */
function portWasTaken(error: unknown): boolean {
  return /EADDRINUSE|address already in use/i.test(error instanceof Error ? error.message : String(error));
}

/**
 * Runs `start` on `count` free ports. A port is only free when picked: a suite running beside
 * this one can bind it before `start`'s process does. When `start` fails for that reason (its
 * error says EADDRINUSE or "address already in use"), new ports are picked and it runs again, a
 * few times at most. `start` must stop what it started before throwing. `pick` is for tests.
 */
export async function onFreePorts<T>(
  count: number,
  start: (ports: number[]) => Promise<T>,
  pick: () => Promise<number> = freePort,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const ports: number[] = [];
    while (ports.length < count) {
      const port = await pick();
      if (!ports.includes(port)) ports.push(port);
    }
    try {
      return await start(ports);
    } catch (error) {
      if (attempt >= ATTEMPTS || !portWasTaken(error)) throw error;
    }
  }
}

/**
 * The TCP ports process `pid` itself listens on (Linux: its sockets in /proc/<pid>/fd matched to
 * /proc/<pid>/net/tcp{,6}), empty once it has exited. Unlike a connection to the port, this
 * cannot be answered by another process that took the port.
 */
export function portsListenedBy(pid: number): Set<number> {
  const inodes = new Set<string>();
  const ports = new Set<number>();
  try {
    for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
      const socket = /^socket:\[(\d+)\]$/.exec(readLink(`/proc/${pid}/fd/${fd}`));
      if (socket) inodes.add(socket[1]);
    }
    for (const table of ["tcp", "tcp6"]) {
      for (const line of fs.readFileSync(`/proc/${pid}/net/${table}`, "utf8").split("\n").slice(1)) {
        // sl local_address rem_address st ... inode: st 0A is LISTEN.
        const [, local, , state, , , , , , inode] = line.trim().split(/\s+/);
        if (state === "0A" && inodes.has(inode)) ports.add(parseInt(local.split(":")[1], 16));
      }
    }
  } catch {
    // It exited meanwhile.
  }
  return ports;
}

function readLink(file: string): string {
  try {
    return fs.readlinkSync(file);
  } catch {
    return "";
  }
}
