import express from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../config";
import { clientAddressOf, trustProxyOf } from "./client-address";

/** What Express's own `req.ip` and the shared function say, for one TRUST_PROXY value and one X-Forwarded-For. */
async function bothReadings(trustProxy: string | undefined, forwardedFor: string) {
  const setting = loadConfig({ ...(trustProxy === undefined ? {} : { TRUST_PROXY: trustProxy }) }).trustProxy;
  const trust = trustProxyOf(setting);
  const app = express();
  // Express compiling the raw setting itself, as app.ts did before the shared function.
  app.set("trust proxy", setting);
  app.get("/", (req, res) => res.json({ express: req.ip, shared: clientAddressOf(req, trust) }));
  const res = await request(app).get("/").set("X-Forwarded-For", forwardedFor);
  return res.body as { express: string; shared: string };
}

describe("the client's address", () => {
  it.each([
    [undefined, "127.0.0.1"],
    ["false", "127.0.0.1"],
    ["1", "203.0.113.9"],
    ["2", "198.51.100.7"],
    ["true", "10.0.0.1"],
    ["loopback", "203.0.113.9"],
    ["loopback, 203.0.113.0/24", "198.51.100.7"],
  ])("with TRUST_PROXY=%s is read as Express reads req.ip (%s)", async (trustProxy, expected) => {
    const { express: byExpress, shared } = await bothReadings(trustProxy, "10.0.0.1, 198.51.100.7, 203.0.113.9");
    expect({ byExpress, shared }).toEqual({ byExpress: expected, shared: expected });
  });
});
