import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page, Response } from "playwright-core";
import { launchBrowser, newPage, signInAsAdmin } from "./browser";

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../admin/dist");
const kB = (bytes: number) => Math.round(bytes / 100) / 10;

interface Loaded {
  url: string;
  encoding: string;
  cacheControl: string;
  /** Bytes on the wire (Chromium asks for brotli). */
  transferred: number;
  /** The same file's size uncompressed and gzip-compressed, from admin/dist. */
  raw: number;
  gzip: number;
}

/** Every script a page loads until the network is idle. */
async function scriptsLoadedBy(page: Page, open: () => Promise<void>): Promise<Loaded[]> {
  const responses: Response[] = [];
  const collect = (response: Response) => {
    if (response.request().resourceType() === "script") responses.push(response);
  };
  page.on("response", collect);
  await open();
  await page.waitForLoadState("networkidle");
  page.off("response", collect);
  return Promise.all(
    responses.map(async (response) => {
      const file = path.join(dist, new URL(response.url()).pathname);
      const headers = await response.allHeaders();
      return {
        url: new URL(response.url()).pathname,
        encoding: headers["content-encoding"] ?? "",
        cacheControl: headers["cache-control"] ?? "",
        transferred: (await response.request().sizes()).responseBodySize,
        raw: fs.statSync(file).size,
        gzip: fs.statSync(`${file}.gz`).size,
      };
    }),
  );
}

function report(route: string, scripts: Loaded[]) {
  const sum = (key: "transferred" | "raw" | "gzip") => kB(scripts.reduce((total, s) => total + s[key], 0));
  console.log(
    `${route}: ${scripts.length} scripts, ${sum("raw")} kB raw, ${sum("gzip")} kB gzip, ${sum("transferred")} kB transferred (brotli)`,
  );
}

describe("the first load", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it("sends every script pre-compressed with a year-long immutable cache, keeps /login within 250 kB gzip, and says what /login and / load", async () => {
    const { context, page } = await newPage(browser);
    const login = await scriptsLoadedBy(page, async () => {
      await page.goto("/login");
      await page.getByLabel("Email").waitFor();
    });
    report("/login", login);
    expect(login.length).toBeGreaterThan(0);
    // The budget for the login route: 250 kB of JavaScript, gzip-compressed.
    expect(login.reduce((total, s) => total + s.gzip, 0)).toBeLessThanOrEqual(250_000);
    for (const script of login) {
      expect(script.url).toMatch(/^\/assets\//);
      expect(script.encoding).toBe("br");
      expect(script.cacheControl).toBe("public, max-age=31536000, immutable");
    }
    const index = await page.request.get("/login");
    expect(index.headers()["cache-control"]).toBe("no-cache");

    const seen = new Set(login.map((s) => s.url));
    const dashboard = (await scriptsLoadedBy(page, () => signInAsAdmin(page))).filter((s) => !seen.has(s.url));
    report("/ (after signing in, beyond what /login loaded)", dashboard);
    report("/ (in all)", [...login, ...dashboard]);
    await context.close();
  });
});
