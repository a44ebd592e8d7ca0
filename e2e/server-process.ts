import type { ChildProcess } from "node:child_process";

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
