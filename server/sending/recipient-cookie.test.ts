import request from "supertest";
import { describe, expect, it } from "vitest";
import { RECIPIENT_COOKIE } from "./recipient-cookie";
import { linkIn, sendMail, setDelivery, studioFixture, type Studio } from "./test-fixtures";

const fixture = studioFixture();
const DAY_MS = 24 * 3600 * 1000;

/** The studio mails Ana; the path of the link in her mail (`/d/<token>?r=<key>`). */
async function anasLink(s: Studio): Promise<string> {
  expect((await sendMail(s.t, s.staff, s.delivery.id, { contactIds: [s.ana] })).status).toBe(200);
  return linkIn(fixture.mails.find((m) => m.to.includes("ana@lima.test"))!);
}

/** The recipient cookie a request for `path` sets, with its attributes by lower-case name. */
async function recipientCookie(s: Studio, path: string, headers: Record<string, string> = {}) {
  const res = await request(s.t.app).get(path).set(headers);
  expect(res.status).toBe(302);
  const set = (res.headers["set-cookie"] as unknown as string[] | undefined) ?? [];
  const line = set.find((c) => c.startsWith(`${RECIPIENT_COOKIE}=`));
  expect(line, JSON.stringify(set)).toBeDefined();
  const [, ...parts] = line!.split(";").map((p) => p.trim());
  const attributes = new Map(parts.map((p) => [p.split("=")[0].toLowerCase(), p.split("=").slice(1).join("=")]));
  return { attributes, expires: Date.parse(attributes.get("expires") ?? "") };
}

describe("the recipient cookie", () => {
  it("is Secure over HTTPS from a trusted proxy, and not over plain HTTP", async () => {
    const s = await fixture.studio({ TRUST_PROXY: "loopback" });
    const link = await anasLink(s);
    const https = await recipientCookie(s, link, { "X-Forwarded-Proto": "https" });
    expect(https.attributes.has("secure")).toBe(true);
    expect(https.attributes.get("path")).toBe(`/d/${s.delivery.token}`);
    expect(https.attributes.has("httponly")).toBe(true);
    expect(https.attributes.get("samesite")).toBe("Lax");
    const plain = await recipientCookie(s, link);
    expect(plain.attributes.has("secure")).toBe(false);
  });

  it("is not Secure when X-Forwarded-Proto comes from a hop that is not trusted", async () => {
    const s = await fixture.studio();
    const claimed = await recipientCookie(s, await anasLink(s), { "X-Forwarded-Proto": "https" });
    expect(claimed.attributes.has("secure")).toBe(false);
  });

  it("is Secure when the request names the https PUBLIC_URL's host, as the other cookies are (a TLS proxy not trusted)", async () => {
    const s = await fixture.studio();
    const link = await anasLink(s);
    const viaPublicName = await recipientCookie(s, link, { Host: "photos.lumen.test" });
    expect(viaPublicName.attributes.has("secure")).toBe(true);
    const viaLanName = await recipientCookie(s, link, { Host: "photodrop.lan" });
    expect(viaLanName.attributes.has("secure")).toBe(false);
  });

  it("expires when the link does, and after 90 days for a link that never expires", async () => {
    const s = await fixture.studio();
    const link = await anasLink(s);
    const never = await recipientCookie(s, link);
    expect(Math.abs(never.expires - (Date.now() + 90 * DAY_MS))).toBeLessThan(60_000);
    expect(never.attributes.has("max-age")).toBe(false);

    const ends = new Date(Date.now() + 7 * DAY_MS);
    ends.setUTCMilliseconds(0);
    await setDelivery(s, { expiresAt: ends.toISOString() });
    const weekLong = await recipientCookie(s, link);
    expect(weekLong.expires).toBe(ends.getTime());
    expect(weekLong.attributes.has("max-age")).toBe(false);
  });
});
