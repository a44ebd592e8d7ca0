import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { signUpAccount } from "./api";
import { launchBrowser } from "./browser";
import { startFreshServer, type FreshServer } from "./fresh-server";
import { clientJourney, headerRecorder, LAN_NAME, MAP_LAN_NAME, studioJourney, type Studio } from "./lan-journey";
import { startTlsProxy, type TlsProxy } from "./tls-proxy";

const CLIENTS_BY_NAME = /^\/api\/clients\?.*_sort=name/;

/**
 * The same journey behind a TLS proxy, as a studio puts Photodrop on the internet: a real TLS
 * connection (a throwaway certificate) to a proxy passing X-Forwarded-Proto, which the server
 * believes under TRUST_PROXY. Here every answer carries HSTS, every page upgrade-insecure-requests,
 * and cookies are Secure.
 */
describe("behind a TLS proxy", () => {
  let server: FreshServer;
  let proxy: TlsProxy;
  let browser: Browser;

  beforeAll(async () => {
    server = await startFreshServer(() => ({ TRUST_PROXY: "loopback" }));
    // The list of clients by name reaches the page 2 s late, as over a slow link: the journey's live
    // change is made while it is on its way, and must still show without a reload.
    proxy = await startTlsProxy(server.baseUrl, LAN_NAME, { path: CLIENTS_BY_NAME, ms: 2_000 });
    browser = await launchBrowser([MAP_LAN_NAME, "--ignore-certificate-errors"]);
  });
  afterAll(async () => {
    await browser?.close();
    await proxy?.close();
    await server?.stop();
  });

  it("serves the whole journey over HTTPS with upgrade-insecure-requests, HSTS and Secure cookies", async () => {
    const baseUrl = `https://${LAN_NAME}:${proxy.port}`;
    const responses = headerRecorder(baseUrl);
    const studio: Studio = {
      baseUrl,
      apiUrl: server.baseUrl,
      email: "owner@studio.test",
      password: "tls-Owner-password-1",
      watch: responses.watch,
      heldClientLists: () => proxy.held(),
    };
    // The first account of a fresh database is its admin.
    await signUpAccount(studio.email, studio.password, "Studio Owner", server.baseUrl);

    const studioSide = await studioJourney(browser, studio, baseUrl);
    expect(await studioSide.page.evaluate(() => window.isSecureContext)).toBe(true);
    expect(studioSide.errors).toEqual([]);
    const refresh = (await studioSide.context.cookies()).find((c) => c.name === "photodrop_refresh");
    expect(refresh?.secure).toBe(true);
    await studioSide.context.close();
    await clientJourney(browser, studio, studioSide.deliveryUrl, studioSide.photos);

    const recorded = await responses.recorded();
    const pages = recorded.filter(({ headers }) => headers["content-type"]?.startsWith("text/html"));
    expect(pages.map(({ url }) => new URL(url).pathname)).toEqual(
      expect.arrayContaining(["/login", new URL(studioSide.deliveryUrl).pathname]),
    );
    for (const { url, headers } of recorded) expect(headers["strict-transport-security"], url).toBe("max-age=31536000");
    for (const { url, headers } of pages) {
      expect(headers["content-security-policy"], url).toMatch(/(^|;)upgrade-insecure-requests(;|$)/);
      expect(headers["cross-origin-opener-policy"], url).toBe("same-origin");
    }
  }, 150_000);
});
