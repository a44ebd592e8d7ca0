import os from "node:os";
import { VERSION } from "./version";

const ANY_ADDRESS = new Set(["0.0.0.0", "::"]);
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|::1)$/i;

type Interfaces = ReturnType<typeof os.networkInterfaces>;

const urlOf = (address: string, port: number) => `http://${address.includes(":") ? `[${address}]` : address}:${port}`;

/**
 * The addresses other machines can open: every interface's IPv4 address, and with `::` (which
 * also takes IPv4 on Linux) every IPv6 one a browser can use (link-local ones need a zone id).
 */
function networkUrls(host: string, port: number, interfaces: Interfaces): string[] {
  return Object.values(interfaces)
    .flatMap((list) => list ?? [])
    .filter((i) => !i.internal && (i.family === "IPv4" || (host === "::" && !/^fe80:/i.test(i.address))))
    .map((i) => urlOf(i.address, port));
}

const sameOrigin = (a: string, b: string) => new URL(a).origin === new URL(b).origin;

/**
 * What `npm start` prints once it listens: its version (package.json's) and every address it can
 * be opened at (as Vite does) when bound to all interfaces, with a warning when PUBLIC_URL is none
 * of them; how to open it to the studio's network when bound to this computer only.
 */
export function startupBanner(
  { host, port, publicUrl, version = VERSION }: { host: string; port: number; publicUrl?: string; version?: string },
  interfaces: Interfaces = os.networkInterfaces(),
): string[] {
  const network = networkUrls(host, port, interfaces);
  const lines: string[] = [];
  if (ANY_ADDRESS.has(host)) {
    lines.push(`Photodrop ${version} is running at:`, `  Local:    ${urlOf("localhost", port)}`);
    for (const url of network) lines.push(`  Network:  ${url}`);
  } else {
    lines.push(`Photodrop ${version} is running at ${urlOf(host, port)}`);
  }
  if (publicUrl) lines.push(`  Public:   ${publicUrl} (PUBLIC_URL: the address in e-mails and copied links)`);
  if (ANY_ADDRESS.has(host) && publicUrl && !network.some((url) => sameOrigin(url, publicUrl))) {
    lines.push(
      `Warning: PUBLIC_URL (${publicUrl}) is none of the network addresses above. Links in e-mails and`,
      "copied delivery links lead there: other computers and phones follow them only if it reaches this server.",
    );
  }
  if (LOOPBACK.test(host)) {
    const example = network[0] ? ` and open ${network[0]}` : "";
    lines.push(
      "Only this computer can open it. To open it from the studio's other computers and phones,",
      `start it with HOST=0.0.0.0${example} (docs/studio-network.md).`,
    );
  }
  return lines;
}
