import type { ChildProcess } from "node:child_process";
import fs from "node:fs";

export { freePort } from "../server/test/free-port";

/** Waits until the server answers /login; throws with the end of its log if it exits or takes over a minute. */
export async function waitUntilServing(baseUrl: string, server: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && server.exitCode === null) {
    try {
      if ((await fetch(`${baseUrl}/login`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, "utf8").slice(-4000) : "";
  throw new Error(`The server did not start at ${baseUrl}:\n${log}`);
}

/** SIGTERM, then SIGKILL after 10 s. */
export function stopProcess(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => server.kill("SIGKILL"), 10_000);
    server.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    server.kill("SIGTERM");
  });
}
