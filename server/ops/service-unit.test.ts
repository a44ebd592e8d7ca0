import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const UNIT_FILE = new URL("../../deploy/photodrop.service", import.meta.url);
const SYSTEMD_ANALYZE = "/usr/bin/systemd-analyze";
const unit = fs.readFileSync(UNIT_FILE, "utf8");
/** The unit's `Key=value` lines (a key given twice keeps both). */
const settings = unit
  .split("\n")
  .filter((line) => /^[A-Za-z]+=/.test(line))
  .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)] as const);
const valuesOf = (key: string) => settings.filter(([k]) => k === key).map(([, v]) => v);

/**
 * Where systemd is present (Debian's systemd package). Elsewhere the check is skipped, visibly, on
 * a developer's machine; in CI (CI=true) it runs and fails, so a CI without systemd cannot pass it.
 */
const noSystemd = !fs.existsSync(SYSTEMD_ANALYZE) && !process.env.CI;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-unit-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/**
 * The unit as shipped, with only its node binary replaced by the one running this test:
 * `systemd-analyze verify` reports an ExecStart binary that does not exist, and /usr/bin/node (Debian's
 * and NodeSource's place for it) need not be installed where the tests run. It does not check the
 * user, the folders or the environment file, which an install creates (docs/service.md).
 */
function unitHere(): string {
  const file = path.join(dir, "photodrop.service");
  expect(unit).toContain("ExecStart=/usr/bin/node ");
  fs.writeFileSync(file, unit.replace("ExecStart=/usr/bin/node ", `ExecStart=${process.execPath} `));
  return file;
}

describe("deploy/photodrop.service", () => {
  it.skipIf(noSystemd)("passes systemd-analyze verify without a single message", () => {
    const run = spawnSync(SYSTEMD_ANALYZE, ["verify", unitHere()], { encoding: "utf8" });
    expect(run.error).toBeUndefined();
    expect(`${run.stdout}${run.stderr}`).toBe("");
    expect(run.status).toBe(0);
  });

  it.skipIf(noSystemd)("is rated OK (exposure at most 2.0 of 10) by systemd-analyze security", () => {
    const run = spawnSync(SYSTEMD_ANALYZE, ["security", "--offline=yes", "--threshold=20", unitHere()], {
      encoding: "utf8",
    });
    expect(run.stdout).toMatch(/Overall exposure level for photodrop\.service: [0-9.]+ OK/);
    expect(run.status, run.stdout).toBe(0);
  });

  it("runs the compiled server as npm start does, as its own user, restarted on failure", () => {
    const start = JSON.parse(fs.readFileSync(new URL("../../package.json", import.meta.url), "utf8")).scripts.start;
    // npm start: `<build if needed> && <environment> node <flags> dist/server/index.js`.
    const [, run] = /&& (.*)$/.exec(start)!;
    const [, environment, command] = /^((?:[A-Z_]+=\S+ )*)node (.*)$/.exec(run)!;
    expect(valuesOf("Environment")).toEqual([environment.trim()]);
    expect(valuesOf("ExecStart")).toEqual([`/usr/bin/node ${command}`]);
    expect(valuesOf("User")).toEqual(["photodrop"]);
    expect(valuesOf("Group")).toEqual(["photodrop"]);
    expect(valuesOf("DynamicUser")).toEqual([]);
    expect(valuesOf("WorkingDirectory")).toEqual(["/opt/photodrop"]);
    expect(valuesOf("EnvironmentFile")).toEqual(["/etc/photodrop/photodrop.env"]);
    expect(valuesOf("Restart")).toEqual(["on-failure"]);
  });

  it("writes only to the data folders, with no capability and no way to gain one", () => {
    expect(valuesOf("ProtectSystem")).toEqual(["strict"]);
    expect(valuesOf("ReadWritePaths")).toEqual([
      "/var/lib/photodrop/uploads /var/lib/photodrop/published /var/lib/photodrop/db",
    ]);
    for (const key of ["ProtectHome", "PrivateTmp", "NoNewPrivileges", "PrivateDevices"])
      expect(valuesOf(key), key).toEqual(["yes"]);
    expect(valuesOf("CapabilityBoundingSet")).toEqual([""]);
  });

  it("opens exactly the folders docs/service.md's settings put the data in", () => {
    const page = fs.readFileSync(new URL("../../docs/service.md", import.meta.url), "utf8");
    const setting = (name: string) => new RegExp(`^ *${name}=(\\S+)$`, "m").exec(page)?.[1];
    const folders = [setting("UPLOADS_DIR"), setting("PUBLISHED_DIR"), path.dirname(setting("DATABASE_URL") ?? "")];
    expect(valuesOf("ReadWritePaths").join(" ").split(" ")).toEqual(folders);
    expect(page).toContain(`install -d -o photodrop -g photodrop -m 0700 ${folders.join(" ")}`);
    expect(page).toContain(`install -m 0600 /dev/null ${valuesOf("EnvironmentFile")[0]}`);
  });
});
