import net from "node:net";
import os from "node:os";
import type { Request } from "express";
import type { Config } from "../config";

function ownAddresses(): Set<string> {
  const addresses = new Set(["localhost", "127.0.0.1", "::1"]);
  for (const list of Object.values(os.networkInterfaces())) {
    for (const entry of list ?? []) addresses.add(entry.address.toLowerCase());
  }
  return addresses;
}

function hostnameOf(host: string): string {
  const bracketed = host.match(/^\[([^\]]+)\](?::\d+)?$/);
  if (bracketed) return bracketed[1].toLowerCase();
  return host.replace(/:\d+$/, "").toLowerCase();
}

/**
 * The absolute origin for links sent out of band (e-mails). PUBLIC_URL wins. Without it the
 * request's Host is used only when it names this machine (localhost, the bind address or one of
 * its own IP addresses): any other Host could be an attacker's, who would receive the link.
 */
export function trustedOrigin(req: Request, config: Config): string | undefined {
  if (config.publicUrl) return config.publicUrl;
  const host = req.get("host");
  if (!host) return undefined;
  const hostname = hostnameOf(host);
  const ours =
    hostname === config.host.toLowerCase() ||
    ownAddresses().has(hostname) ||
    (net.isIP(hostname) === 4 && hostname.startsWith("127."));
  return ours ? `${req.protocol}://${host}` : undefined;
}
