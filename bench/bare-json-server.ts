/**
 * The scale bench's baseline in a process of its own, started with npm start's node flags: the bare
 * Express JSON handler of bench-app.ts (25 fixed project-like objects) at GET /fixed. Prints
 * `running at <url>` and serves until SIGTERM.
 */
import { listenBareBaseline } from "./bench-app";

const { server, base } = await listenBareBaseline();
console.log(`running at ${base}`);
process.once("SIGTERM", () => server.close(() => process.exit(0)));
