import type { Config } from "./config";
import type { Db } from "./db/database";
import type { EventBus } from "./events/bus";
import type { Logger } from "./logger";
import type { TokenService } from "./auth/tokens";

/** Everything a router, service or job needs, built once at start (or per test). */
export interface AppContext {
  config: Config;
  db: Db;
  /** Reads outside transactions (list pages) may use this pool; everything else uses `db`. */
  reads: Db;
  logger: Logger;
  events: EventBus;
  tokens: TokenService;
}
