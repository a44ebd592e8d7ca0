import express from "express";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installContractHook } from "./contract-hook";

// Installed for every test file by the setup file; here too, so this file also tests it alone.
let uninstall: () => void;
beforeAll(() => {
  uninstall = installContractHook();
});
afterAll(() => {
  uninstall();
  // As the setup file left it for the files that follow in this worker.
  installContractHook();
});

/** A stand-in server that answers /api/clients as the document says it must not. */
function brokenApi() {
  const app = express();
  app.get("/api/clients", (_req, res) => {
    res.json([]);
  });
  app.get("/api/clients/:id", (_req, res) => {
    res.set("ETag", '"1"').json({ id: "not a number" });
  });
  app.get("/d/:token", (_req, res) => {
    res.type("html").send("<p>a page</p>");
  });
  return app;
}

describe("the suite-wide contract hook (contract-hook.ts)", () => {
  it("rejects an answer that lacks a promised header or whose body breaks its schema", async () => {
    await expect(request(brokenApi()).get("/api/clients")).rejects.toThrow(/lacks its X-Total-Count header/);
    await expect(request(brokenApi()).get("/api/clients/7")).rejects.toThrow(/body against the document/);
  });

  it("lets through routes the document leaves out", async () => {
    const res = await request(brokenApi()).get("/d/abc");
    expect(res.status).toBe(200);
  });

  it("checks nothing once taken away", async () => {
    uninstall();
    const res = await request(brokenApi()).get("/api/clients");
    expect(res.status).toBe(200);
    uninstall = installContractHook();
  });
});
