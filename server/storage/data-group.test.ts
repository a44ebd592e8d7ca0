import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../config";
import { createContext, StartupError } from "../bootstrap";
import { dataFileModes, groupId, PRIVATE_MODES } from "./file-modes";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-data-group-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const env = (group: string) => ({
  DATA_GROUP: group,
  DATABASE_URL: path.join(dir, "db.sqlite3"),
  UPLOADS_DIR: path.join(dir, "uploads"),
  PUBLISHED_DIR: path.join(dir, "published"),
  LOG_LEVEL: "silent",
});

describe("DATA_GROUP", () => {
  it("is unset by default, and then the data folders are private", () => {
    const config = loadConfig({});
    expect(config.dataGroup).toBeUndefined();
    expect(dataFileModes(config)).toEqual(PRIVATE_MODES);
  });

  it("takes a group's name or number; the data folders' modes are then the group's to read", () => {
    expect(loadConfig({ DATA_GROUP: " www-data " }).dataGroup).toBe("www-data");
    const own = process.getegid!();
    expect(dataFileModes(loadConfig({ DATA_GROUP: String(own) }))).toEqual({ file: 0o640, dir: 0o750, gid: own });
    const [name, , gid] = fs.readFileSync("/etc/group", "utf8").split("\n")[0].split(":");
    expect(groupId(name)).toBe(Number(gid));
  });

  it.each(["www data", "-5", "staff;rm", "ä"])("refuses %j naming the setting", (value) => {
    expect(() => loadConfig({ DATA_GROUP: value })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_GROUP: value })).toThrow("DATA_GROUP");
  });

  it("stops the start, naming the setting, when no group has that name", async () => {
    const start = createContext(loadConfig(env("no-such-group-photodrop")));
    await expect(start).rejects.toThrow(StartupError);
    await expect(start).rejects.toThrow("DATA_GROUP: there is no group no-such-group-photodrop");
  });
});
