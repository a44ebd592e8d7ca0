import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createContext } from "../bootstrap";
import { loadConfig } from "../config";
import { createLogger } from "../logger";
import { knexConfigFor } from "./dialect";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-dburl-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("DATABASE_URL", () => {
  it("selects knex's pg client for a postgres:// URL, with DATABASE_POOL_MAX connections", () => {
    const config = loadConfig({ DATABASE_URL: "postgres://u@db.example:5432/photodrop", DATABASE_POOL_MAX: "3" });
    const knexConfig = knexConfigFor(config.databaseUrl, { poolMax: config.databasePoolMax });
    expect(knexConfig.client).toBe("pg");
    expect(knexConfig.pool).toMatchObject({ max: 3 });
    expect(knexConfigFor("postgresql://u@db.example/photodrop").pool).toMatchObject({ max: 10 });
    expect(() => loadConfig({ DATABASE_POOL_MAX: "0" })).toThrow("DATABASE_POOL_MAX");
  });

  it("never names the password of an unreachable PostgreSQL server in the start-up error", async () => {
    const config = loadConfig({
      DATABASE_URL: "postgres://photodrop:s3cret-pass@127.0.0.1:1/photodrop",
      UPLOADS_DIR: path.join(dir, "uploads"),
      PUBLISHED_DIR: path.join(dir, "published"),
      LOG_LEVEL: "silent",
    });
    const failure = await createContext(config, createLogger("silent")).catch((err: Error) => err);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toContain("Cannot open database postgres://photodrop:***@127.0.0.1:1/photodrop");
    expect((failure as Error).message).not.toContain("s3cret-pass");
  });
});
