import { installContractHook } from "./contract-hook";

/**
 * A vitest setup file that makes every server test a contract test: each supertest answer is
 * checked against the OpenAPI document (contract-hook.ts). Enable it with
 * `setupFiles: ["server/openapi/contract-setup.ts"]` in the unit project of vitest.config.ts.
 */
installContractHook();
