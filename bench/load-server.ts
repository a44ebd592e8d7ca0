/**
 * The server side of bench/load.ts, run as its own process so autocannon does not share its event
 * loop: fills a temp database, then serves the real app and the bare baseline on two ports and
 * prints one JSON line with both addresses and a signed-in user's headers. Ends on SIGTERM.
 */
import { benchContext, listen, listenBareBaseline } from "./bench-app";
import { createApp } from "../server/app";
import { createUser } from "../server/test/harness";
import { ATTACHMENTS, CLIENTS, PROJECTS, fillDatabase } from "./large-data";

async function main() {
  const { ctx, close } = await benchContext("photodrop-load-");
  const filling = performance.now();
  await fillDatabase(ctx);
  const filledMs = Math.round(performance.now() - filling);
  const user = await createUser(ctx);
  const app = createApp(ctx);
  const api = await listen(app, app.serverOptions);
  const baseline = await listenBareBaseline();
  console.log(
    JSON.stringify({
      api: api.base,
      baseline: baseline.base,
      auth: user.auth,
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
