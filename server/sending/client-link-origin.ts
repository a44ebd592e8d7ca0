import net from "node:net";
import type { Request } from "express";
import type { Config } from "../config";
import { trustedOrigin } from "../http/request-origin";

const isLoopback = (hostname: string) => {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost") || host === "::1" || host === "0.0.0.0") return true;
  return net.isIP(host) === 4 && host.startsWith("127.");
};

export const NO_PUBLIC_ADDRESS =
  "Set PUBLIC_URL to the address your clients reach Photodrop at: this address is not one a client can open.";

/**
 * The origin of the links a client's mail carries: PUBLIC_URL, or the request's own address
 * when it names this machine (as for every other mail). A loopback address only opens on this
 * computer, so a mail with it would reach the client with a dead link: `problem` says so.
 */
export function clientLinkOrigin(req: Request, config: Config): { origin: string } | { problem: string } {
  const origin = trustedOrigin(req, config);
  if (!origin) return { problem: NO_PUBLIC_ADDRESS };
  if (isLoopback(new URL(origin).hostname))
    return {
      problem: `Set PUBLIC_URL to the address your clients reach Photodrop at: a link to ${origin} only opens on this computer.`,
    };
  return { origin };
}
