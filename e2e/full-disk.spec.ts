import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, it } from "vitest";
import type { Browser } from "playwright-core";
import { makeNoisyJpeg } from "../server/attachments/test-fixtures";
import { DISK_FULL } from "../server/http/errors";
import { mountSmallDisk, type SmallDisk } from "../server/test/small-disk";
import { create, logIn, signUpAccount } from "./api";
import { launchBrowser, signIn } from "./browser";
import { startFreshServer, type FreshServer } from "./fresh-server";

/** A server whose photo folders sit on a small disk (tmpfs) that fills up: the upload row says so. */
describe("uploading to a full disk", () => {
  let base: string;
  let disk: SmallDisk | undefined;
  let server: FreshServer | undefined;
  let browser: Browser | undefined;
  const owner = { email: "owner@studio.test", password: "full-Owner-password-1" };

  beforeAll(async () => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-e2e-full-"));
    disk = mountSmallDisk(path.join(base, "disk"), 8);
    const folders = { UPLOADS_DIR: path.join(disk.dir, "uploads"), PUBLISHED_DIR: path.join(disk.dir, "published") };
    server = await startFreshServer(() => folders);
    await signUpAccount(owner.email, owner.password, "Studio Owner", server.baseUrl);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    disk?.unmount();
    fs.rmSync(base, { recursive: true, force: true });
  });

  it("shows the server's disk-full message on the file, and the retry succeeds once there is room", async () => {
    const { accessToken } = await logIn(owner.email, owner.password, server!.baseUrl);
    const project = await create<{ id: number }>(accessToken, "projects", { name: "Full Disk" }, server!.baseUrl);
    const context = await browser!.newContext({ baseURL: server!.baseUrl });
    context.setDefaultTimeout(20_000);
    const page = await context.newPage();
    await signIn(page, owner.email, owner.password);
    await page.getByRole("heading", { name: "Dashboard Overview" }).waitFor();
    await page.goto(`/projects/${project.id}`);
    await page.getByText("No attachments found for this project.").waitFor();

    const photo = { name: "too-big.jpg", mimeType: "image/jpeg", buffer: await makeNoisyJpeg(1400, 1050) };
    const filler = disk!.fill(64 * 1024);
    await page.getByTestId("attachment-drop-zone").locator('input[type="file"]').setInputFiles([photo]);
    await page.getByLabel("Upload too-big.jpg").getByText(DISK_FULL).waitFor();

    fs.rmSync(filler);
    await page.getByRole("button", { name: "Retry too-big.jpg" }).click();
    await page.getByText("Attachments (1)").waitFor();
    await context.close();
  });
});
