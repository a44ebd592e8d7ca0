import type { IncomingMessage } from "node:http";
import proxyaddr from "proxy-addr";
import type { Config } from "../config";
import type { TrustProxy } from "./security";

/**
 * TRUST_PROXY compiled the way Express compiles its `trust proxy` setting: `true` believes every
 * hop, a number that many hops from the socket, a string a comma-separated list of addresses,
 * subnets or names (`loopback`, `uniquelocal`…). Given to Express as its setting, so `req.ip` and
 * every address read outside Express come from this one function.
 */
export function trustProxyOf(setting: Config["trustProxy"]): TrustProxy {
  if (setting === true) return () => true;
  if (typeof setting === "number") return (_address, i) => i < setting;
  const trusted = proxyaddr.compile(setting === false ? [] : setting.split(",").map((part) => part.trim()));
  // A socket already closed has no address: nothing to trust.
  return (address, i) => address !== undefined && trusted(address, i);
}

/**
 * The client's address as Express's `req.ip` reads it: the socket's, or, past the hops `trust`
 * believes, the nearest address of X-Forwarded-For that is not a trusted proxy.
 */
export function clientAddressOf(req: IncomingMessage, trust: TrustProxy): string {
  return proxyaddr(req, trust) ?? "unknown";
}
