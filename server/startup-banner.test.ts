import fs from "node:fs";
import type os from "node:os";
import { describe, expect, it } from "vitest";
import { startupBanner } from "./startup-banner";

/** package.json's version, read as a person would, apart from the module the server reads it with. */
const VERSION: string = JSON.parse(fs.readFileSync(new URL("../package.json", import.meta.url), "utf8")).version;

type Interfaces = ReturnType<typeof os.networkInterfaces>;
const nic = (address: string, family: "IPv4" | "IPv6", internal = false) =>
  ({ address, family, internal, netmask: "", mac: "", cidr: null }) as unknown as os.NetworkInterfaceInfo;

const STUDIO: Interfaces = {
  lo: [nic("127.0.0.1", "IPv4", true), nic("::1", "IPv6", true)],
  eth0: [nic("192.168.1.20", "IPv4"), nic("fe80::1c2:3ff:fe4:5", "IPv6"), nic("2001:db8::20", "IPv6")],
  wlan0: [nic("10.0.0.7", "IPv4")],
};

describe("what npm start prints once it listens", () => {
  it("lists the local address and every network address when bound to 0.0.0.0", () => {
    expect(startupBanner({ host: "0.0.0.0", port: 3000 }, STUDIO)).toEqual([
      `Photodrop ${VERSION} is running at:`,
      "  Local:    http://localhost:3000",
      "  Network:  http://192.168.1.20:3000",
      "  Network:  http://10.0.0.7:3000",
    ]);
  });

  it("adds the IPv6 addresses a browser can use when bound to ::", () => {
    const lines = startupBanner({ host: "::", port: 8080 }, STUDIO);
    expect(lines).toContain("  Network:  http://[2001:db8::20]:8080");
    expect(lines).toContain("  Network:  http://192.168.1.20:8080");
    expect(lines.join("\n")).not.toContain("fe80");
  });

  it("says nothing more when PUBLIC_URL is one of the network addresses", () => {
    const lines = startupBanner({ host: "0.0.0.0", port: 3000, publicUrl: "http://192.168.1.20:3000" }, STUDIO);
    expect(lines.at(-1)).toBe(
      "  Public:   http://192.168.1.20:3000 (PUBLIC_URL: the address in e-mails and copied links)",
    );
    expect(lines.join("\n")).not.toContain("Warning");
  });

  it.each(["http://localhost:3000", "http://192.168.1.20:4000", "https://photos.studio.example"])(
    "warns when bound to the network and PUBLIC_URL (%s) is none of its addresses",
    (publicUrl) => {
      const text = startupBanner({ host: "0.0.0.0", port: 3000, publicUrl }, STUDIO).join("\n");
      expect(text).toContain(`Warning: PUBLIC_URL (${publicUrl}) is none of the network addresses above.`);
    },
  );

  it("says how to open it to the network when bound to this computer only", () => {
    expect(startupBanner({ host: "127.0.0.1", port: 3000 }, STUDIO)).toEqual([
      `Photodrop ${VERSION} is running at http://127.0.0.1:3000`,
      "Only this computer can open it. To open it from the studio's other computers and phones,",
      `start it with HOST=0.0.0.0 and open http://192.168.1.20:3000 (docs/studio-network.md).`,
    ]);
  });

  it("prints one address and no advice when bound to one network address", () => {
    expect(startupBanner({ host: "192.168.1.20", port: 3000 }, STUDIO)).toEqual([
      `Photodrop ${VERSION} is running at http://192.168.1.20:3000`,
    ]);
  });

  it("names the version in package.json, a release's number", () => {
    expect(VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    expect(startupBanner({ host: "127.0.0.1", port: 3000 }, STUDIO)[0]).toBe(
      `Photodrop ${VERSION} is running at http://127.0.0.1:3000`,
    );
    expect(startupBanner({ host: "0.0.0.0", port: 3000, version: "9.8.7" }, STUDIO)[0]).toBe(
      "Photodrop 9.8.7 is running at:",
    );
  });
});
