import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";

describe("configuration", () => {
  it("uses the contract's defaults when nothing is set", () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.host).toBe("127.0.0.1");
    expect(c.databaseUrl).toBe("./photodrop.sqlite3");
    expect(c.uploadsDir).toBe(path.resolve("./uploads"));
    expect(c.publishedDir).toBe(path.resolve("./published"));
    expect(c.maxUploadBytes).toBe(10 * 1024 * 1024);
    expect(c.seedDemo).toBe(true);
    expect(c.google).toBeUndefined();
    expect(c.passwordPolicy).toEqual({
      minLength: 6,
      maxLength: null,
      requireUppercase: false,
      requireLowercase: false,
      requireNumeric: false,
      requireNonAlphanumeric: false,
    });
    expect(c.accessTokenTtl).toBe(3600);
    expect(c.refreshTokenTtl).toBe(2592000);
    expect(c.publishConcurrency).toBe(2);
    expect(c.publishLeaseSeconds).toBe(30);
    expect(c.maxDecodeBytes).toBe(200_000_000);
    expect(c.previewSize).toBe(2048);
    expect(c.trustProxy).toBe(false);
  });

  it.each([
    ["1", 1],
    ["2", 2],
    ["true", true],
    ["loopback", "loopback"],
    ["0", false],
  ])("reads TRUST_PROXY=%s for Express", (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it("reads every variable it is given", () => {
    const c = loadConfig({
      PORT: "0",
      SEED_DEMO: "0",
      PUBLIC_URL: "https://photos.example.com/",
      ADMIN_EMAIL: "Boss@Example.com",
      ADMIN_PASSWORD: "secret-pass",
      GOOGLE_CLIENT_ID: "abc.apps.googleusercontent.com",
      PASSWORD_MIN_LENGTH: "10",
      PASSWORD_MAX_LENGTH: "64",
      PASSWORD_REQUIRE_SYMBOL: "1",
      PUBLISH_LEASE_SECONDS: "12",
      PREVIEW_SIZE: "1600",
    });
    expect(c.port).toBe(0);
    expect(c.seedDemo).toBe(false);
    expect(c.publicUrl).toBe("https://photos.example.com");
    expect(c.admin).toEqual({ email: "boss@example.com", password: "secret-pass" });
    expect(c.google?.issuer).toBe("https://accounts.google.com");
    expect(c.passwordPolicy).toMatchObject({ minLength: 10, maxLength: 64, requireNonAlphanumeric: true });
    expect(c.publishLeaseSeconds).toBe(12);
    expect(c.previewSize).toBe(1600);
  });

  it.each([
    [{ PORT: "abc" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ MAX_UPLOAD_BYTES: "-5" }, "MAX_UPLOAD_BYTES"],
    [{ SEED_DEMO: "maybe" }, "SEED_DEMO"],
    [{ PUBLIC_URL: "not a url" }, "PUBLIC_URL"],
    [{ ADMIN_EMAIL: "boss", ADMIN_PASSWORD: "x" }, "ADMIN_EMAIL"],
    [{ ADMIN_EMAIL: "boss@example.com" }, "ADMIN_EMAIL and ADMIN_PASSWORD"],
    [{ PASSWORD_MIN_LENGTH: "12", PASSWORD_MAX_LENGTH: "8" }, "PASSWORD_MAX_LENGTH"],
    [{ LOG_LEVEL: "loud" }, "LOG_LEVEL"],
    [{ PUBLISH_LEASE_SECONDS: "1" }, "PUBLISH_LEASE_SECONDS"],
    [{ MAX_DECODE_BYTES: "1000" }, "MAX_DECODE_BYTES"],
    [{ PREVIEW_SIZE: "300" }, "PREVIEW_SIZE"],
    [{ PREVIEW_SIZE: "2048.5" }, "PREVIEW_SIZE"],
  ])("refuses %o naming the variable", (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });
});
