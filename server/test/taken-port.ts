import net from "node:net";
import { freePort } from "./free-port";

/** Another suite's process, holding a port before ours binds it; answers anything with an empty 200. */
export async function squatOnAPort(): Promise<{ taken: number; release: () => Promise<void> }> {
  const squatter = net.createServer((socket) => socket.end("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"));
  await new Promise<void>((resolve) => squatter.listen(0, "127.0.0.1", resolve));
  return {
    taken: (squatter.address() as net.AddressInfo).port,
    release: () => new Promise((resolve) => squatter.close(() => resolve())),
  };
}

/** Picks `taken` first, as freePort would have if another process had bound it after probing. */
export function takenFirst(taken: number): { pick: () => Promise<number>; picked: number[] } {
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
