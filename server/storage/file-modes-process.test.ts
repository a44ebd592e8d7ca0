import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppProcess, type AppProcess } from "../test/app-process";
import { until } from "../test/wait";
import { entriesUnder, wrongModes } from "./modes-walk";

let umask: number;
let dir: string;
let app: AppProcess | undefined;
beforeAll(() => {
  // Inherited by the process started below, as a service manager's would be.
  umask = process.umask(0o022);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-modes-process-"));
});
afterAll(async () => {
  await app?.stop();
  process.umask(umask);
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A photo upload sent halfway and held open, so its temp file is in UPLOADS_DIR/.tmp; hang up to end it. */
function halfUpload(url: string, projectId: number, token: string): http.ClientRequest {
  const req = http.request(`${url}/api/attachments/projects/${projectId}/upload`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${token}`,
      "Content-Type": "multipart/form-data; boundary=XyZ",
      "Content-Length": String(1 << 20),
    },
  });
  req.on("error", () => undefined);
  req.write('--XyZ\r\nContent-Disposition: form-data; name="file"; filename="half.jpg"\r\n');
  req.write("Content-Type: image/jpeg\r\n\r\n");
  req.write(Buffer.alloc(64 * 1024, 7));
  return req;
}

describe("the server process started under umask 022", () => {
  it("writes the database, the demo's photos and renditions, and an upload's temp file for its user only", async () => {
    const data = path.join(dir, "data");
    app = await startAppProcess({
      SEED_DEMO: "1",
      LOG_LEVEL: "info",
      DATABASE_URL: path.join(data, "photodrop.sqlite3"),
      UPLOADS_DIR: path.join(data, "uploads"),
      PUBLISHED_DIR: path.join(data, "published"),
    });
    const [, email, password] = /Sign in as (\S+) with password (\S+)/.exec(app.log())!;
    const login = await fetch(`${app.url}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email, password }),
    });
    expect(login.status).toBe(200);
    const { accessToken } = (await login.json()) as { accessToken: string };
    const created = await fetch(`${app.url}/api/projects`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${accessToken}` },
      body: JSON.stringify({ name: "Still receiving" }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };

    const upload = halfUpload(app.url, id, accessToken);
    try {
      // The upload's own temp file (the demo's renders keep temp files in .tmp too).
      const uploadTemp = /^uploads\/\.tmp\/[0-9a-f]{24}\/tmp-/;
      const relativeNames = () => entriesUnder(data).map((e) => path.relative(data, e.path));
      await until(
        () => relativeNames().filter((n) => uploadTemp.test(n)).length,
        (n) => n >= 1,
      );
      // The demo's previews render after the start; some are there by now, all are checked as they are.
      const entries = entriesUnder(data);
      const names = entries.map((e) => path.relative(data, e.path));
      expect(names).toEqual(expect.arrayContaining(["photodrop.sqlite3", "photodrop.sqlite3-wal"]));
      expect(names.filter((n) => /^uploads\/\d+\/.+\.thumb\.webp$/.test(n)).length).toBeGreaterThan(0);
      expect(names.filter((n) => uploadTemp.test(n))).toHaveLength(1);
      expect(wrongModes(entries, { file: 0o600, folder: 0o700 })).toEqual([]);
    } finally {
      upload.destroy();
    }
  }, 90_000);
});
