import net from "node:net";
import type { Request } from "express";
import type { Config } from "../config";

/** Who the browser signs a passkey ceremony for: the host name (RP ID) and the page's origin. */
export interface RelyingParty {
  id: string;
  origin: string;
}

/** Whether this request's page may use passkeys; when not, the reason the page shows. */
export type PasskeySupport = { offered: true; relyingParty: RelyingParty } | { offered: false; reason: string };

const LOCALHOST = /^(localhost|.+\.localhost)$/i;

export const NOT_SECURE =
  "Passkeys need a secure connection: open Photodrop over HTTPS (or at http://localhost on the computer it runs on). " +
  "Over plain HTTP the browser does not offer them.";
export const IP_ADDRESS =
  "Passkeys need the studio's address by name (HTTPS), not an IP address: browsers refuse them there.";
const elsewhere = (origin: string) =>
  `Passkeys are offered at ${origin}, the studio's address (PUBLIC_URL): open Photodrop there to use them.`;

/**
 * The relying party as the app decides its public origin: PUBLIC_URL's when set (and the request
 * names its host; a passkey made at another address would not work at the studio's), otherwise the
 * request's own. Browsers allow passkeys only in a secure context (HTTPS, or localhost over plain
 * HTTP) and only for a host name, never an IP address; the server refuses what the browser would.
 */
export function passkeySupportOf(req: Request, config: Pick<Config, "publicUrl">): PasskeySupport {
  const hostname = req.hostname.toLowerCase();
  if (config.publicUrl) {
    const url = new URL(config.publicUrl);
    if (hostname !== url.hostname.toLowerCase()) return { offered: false, reason: elsewhere(url.origin) };
    return supportAt(url.protocol, url.hostname, url.origin);
  }
  return supportAt(`${req.protocol}:`, hostname, `${req.protocol}://${req.host}`);
}

function supportAt(protocol: string, hostname: string, origin: string): PasskeySupport {
  const bare = hostname.replace(/^\[|\]$/g, "");
  if (net.isIP(bare)) return { offered: false, reason: IP_ADDRESS };
  if (protocol !== "https:" && !LOCALHOST.test(hostname)) return { offered: false, reason: NOT_SECURE };
  return { offered: true, relyingParty: { id: hostname, origin: origin.toLowerCase() } };
}
