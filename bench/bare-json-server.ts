/**
 * The scale bench's baselines in a process of their own, started with npm start's node flags: the
 * bare Express JSON handler of bench-app.ts (25 fixed project-like objects) at GET /fixed, once as
 * Express is usually served and once with requests made with Express's prototypes from the start,
 * as Photodrop serves it. Prints `running at <url> born at <url>` and serves until SIGTERM.
 */
import { listenBareBaseline } from "./bench-app";

const plain = await listenBareBaseline();
const born = await listenBareBaseline({ born: true });
console.log(`running at ${plain.base} born at ${born.base}`);
process.once("SIGTERM", () => plain.server.close(() => born.server.close(() => process.exit(0))));
