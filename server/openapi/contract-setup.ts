import { installContractHook } from "./contract-hook";

/**
 * A vitest setup file that makes every server test a contract test: each supertest answer is
 * checked against the OpenAPI document (contract-hook.ts). The sqlite, PostgreSQL and object
 * storage suites run it (`setupFiles` in vitest.config.ts, vitest.pg.config.ts, vitest.s3.config.ts).
 */
installContractHook();
