import net from "node:net";
import dns from "node:dns";

/** A block list of `address/prefix` subnets (a bare address is a /32 or /128). */
function blockListOf(ranges: string[]): net.BlockList {
  const list = new net.BlockList();
  for (const range of ranges) {
    const [address, prefix] = range.split("/");
    const type = net.isIPv6(address) ? "ipv6" : "ipv4";
    list.addSubnet(address, prefix === undefined ? (type === "ipv6" ? 128 : 32) : Number(prefix), type);
  }
  return list;
}

/** Never reachable by a webhook: link-local (cloud metadata lives there), unspecified, multicast. */
const ALWAYS_REFUSED = blockListOf([
  "169.254.0.0/16",
  "0.0.0.0/8",
  "224.0.0.0/4",
  "240.0.0.0/4",
  "fe80::/10",
  "ff00::/8",
  "::",
  "fd00:ec2::254",
]);

/** Reachable only with WEBHOOK_ALLOW_PRIVATE=1: loopback, RFC 1918, carrier-grade NAT, unique-local. */
const PRIVATE = blockListOf([
  "127.0.0.0/8",
  "10.0.0.0/8",
  "172.16.0.0/12",
  "192.168.0.0/16",
  "100.64.0.0/10",
  "::1",
  "fc00::/7",
]);

/** An IPv4 address written as IPv6 (`::ffff:169.254.169.254`) is judged as the IPv4 address it is. */
function normalized(address: string): { address: string; type: "ipv4" | "ipv6" } | undefined {
  const family = net.isIP(address);
  if (family === 4) return { address, type: "ipv4" };
  if (family !== 6) return undefined;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1], type: "ipv4" };
  return { address, type: "ipv6" };
}

/** Why a webhook may not be sent to this address, or undefined when it may. */
export function addressProblem(address: string, allowPrivate: boolean): string | undefined {
  const ip = normalized(address);
  if (!ip) return `${address} is not an IP address`;
  if (ALWAYS_REFUSED.check(ip.address, ip.type))
    return `${address} is a link-local, metadata or reserved address, never allowed`;
  if (!allowPrivate && PRIVATE.check(ip.address, ip.type))
    return `${address} is a loopback or private address (allowed only with WEBHOOK_ALLOW_PRIVATE=1)`;
  return undefined;
}

const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, "");

/** For a URL's host written as an address: why it is refused; a name is judged only when sending. */
export function literalAddressProblem(hostname: string, allowPrivate: boolean): string | undefined {
  const host = bare(hostname);
  return net.isIP(host) ? addressProblem(host, allowPrivate) : undefined;
}

export class RefusedAddressError extends Error {}

export interface CheckedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address of a host name (an address given as the name answers itself). */
export type Resolve = (host: string) => Promise<dns.LookupAddress[]>;

const systemResolve: Resolve = (host) => dns.promises.lookup(host, { all: true, verbatim: true });

/**
 * Resolves the host now and checks every address it has: one refused address refuses the host
 * (a name may not mix a public address with a private one). Answers the address to connect to.
 */
export async function resolveAllowed(
  hostname: string,
  allowPrivate: boolean,
  resolve: Resolve = systemResolve,
): Promise<CheckedAddress> {
  const host = bare(hostname);
  let found: dns.LookupAddress[];
  try {
    found = await resolve(host);
  } catch (err) {
    throw new RefusedAddressError(`${host} could not be resolved: ${(err as NodeJS.ErrnoException).code ?? "error"}`);
  }
  if (found.length === 0) throw new RefusedAddressError(`${host} has no address`);
  for (const { address } of found) {
    const problem = addressProblem(address, allowPrivate);
    if (problem) throw new RefusedAddressError(`refused: ${host} resolves to ${problem}`);
  }
  return { address: found[0].address, family: found[0].family === 6 ? 6 : 4 };
}
