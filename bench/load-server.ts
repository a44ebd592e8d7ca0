/**
 * The server side of bench/load.ts, run as its own process so autocannon does not share its event
 * loop: fills a temp database, then serves the real app and the bare baseline on two ports and
 * prints one JSON line with both addresses, a signed-in user's headers and the same user's headers
 * with an API token (`pd_…`, its per-minute limit raised far above what the bench sends, so the
 * limit is not what is measured). Ends on SIGTERM.
 */
import { benchContext, listen, listenBareBaseline } from "./bench-app";
import { createApp } from "../server/app";
import { createUser } from "../server/test/harness";
import { ATTACHMENTS, CLIENTS, PROJECTS, fillDatabase } from "./large-data";

async function main() {
  const { ctx, close } = await benchContext("photodrop-load-", { API_TOKEN_REQUESTS_PER_MINUTE: "1000000" });
  const filling = performance.now();
  await fillDatabase(ctx);
  const filledMs = Math.round(performance.now() - filling);
  const user = await createUser(ctx);
  const app = createApp(ctx);
  const api = await listen(app, app.serverOptions);
  const baseline = await listenBareBaseline();
  // Made as a script's owner makes one: through the API.
  const made = await fetch(`${api.base}/api/users/me/tokens`, {
    method: "POST",
    headers: { ...user.auth, "Content-Type": "application/json" },
    body: JSON.stringify({ name: "load bench", scope: "read", expiresAt: null }),
  });
  if (made.status !== 201) throw new Error(`could not make an API token: ${made.status} ${await made.text()}`);
  const { token } = (await made.json()) as { token: string };
  console.log(
    JSON.stringify({
      api: api.base,
      baseline: baseline.base,
      auth: user.auth,
      tokenAuth: { Authorization: `Bearer ${token}` },
      filled: `filled ${CLIENTS} clients, ${PROJECTS} projects, ${ATTACHMENTS} attachment rows in ${filledMs} ms`,
    }),
  );
  process.once("SIGTERM", () => {
    api.server.close();
    baseline.server.close();
    api.server.closeAllConnections();
    baseline.server.closeAllConnections();
    // autocannon stops without waiting for its last answers: let their queries finish before the pool closes.
    setTimeout(() => void close().then(() => process.exit(0)), 2000);
  });
}

main().catch((err) => {
  console.error(String(err?.message ?? err).slice(0, 2000));
  process.exit(1);
});
