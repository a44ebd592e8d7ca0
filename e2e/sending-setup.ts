import type { Browser, BrowserContext, Page } from "playwright-core";
import { expect } from "vitest";
import { create, signUpAccount } from "./api";
import { launchBrowser, signInAsAdmin } from "./browser";
import { startFreshServer, type FreshServer } from "./fresh-server";
import { imageFile } from "./fixtures/images";
import { uploadThroughApi } from "./fixtures/upload";
import { startSmtpInbox, type SmtpInbox } from "../server/test/smtp-inbox";

/** The studio's first account, which becomes its admin. */
export const ADMIN = { email: "ada@lumen.test", password: "ada-password-1" };
const LAN = "studio.lan";
/** Turns the server's /metrics on, where the publish queue's length is read. */
const METRICS_TOKEN = "e2e-sending-metrics";

export interface SendingSetup {
  smtp: SmtpInbox;
  server: FreshServer;
  browser: Browser;
  /** The server as the studio's clients reach it: by its LAN name, the one in PUBLIC_URL. */
  lanUrl: string;
  /**
   * Resolves once no publish build runs or waits on the server (its queue-length gauge at 0): a
   * build's update notices are mailed before it leaves the queue, so no mail of it can still come.
   */
  publishQueueDrained(): Promise<void>;
  stop(): Promise<void>;
}

async function publishQueueLength(baseUrl: string): Promise<number | undefined> {
  const response = await fetch(`${baseUrl}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
  const gauge = /^photodrop_publish_queue_length (\d+)$/m.exec(await response.text());
  return gauge ? Number(gauge[1]) : undefined;
}

/**
 * A fresh server that mails a real SMTP inbox, its links naming the studio's LAN address, and a
 * browser that maps that name to this machine.
 */
export async function startSendingSetup(): Promise<SendingSetup> {
  const smtp = await startSmtpInbox();
  const server = await startFreshServer((port) => ({
    SMTP_URL: smtp.url,
    PUBLIC_URL: `http://${LAN}:${port}`,
    STUDIO_NAME: "Lumen Studio",
    METRICS_TOKEN,
  }));
  const lanUrl = server.baseUrl.replace("127.0.0.1", LAN);
  // The CSP's upgrade-insecure-requests breaks every plain-HTTP name but localhost's, the web
  // app's live socket included (issue 26); until that is fixed the studio works at 127.0.0.1 and
  // the browser is told to take the client's LAN name for a secure origin.
  const browser = await launchBrowser([
    `--host-resolver-rules=MAP ${LAN} 127.0.0.1`,
    `--unsafely-treat-insecure-origin-as-secure=${lanUrl}`,
  ]);
  return {
    smtp,
    server,
    browser,
    lanUrl,
    async publishQueueDrained() {
      await expect.poll(() => publishQueueLength(server.baseUrl)).toBe(0);
    },
    async stop() {
      await browser.close();
      await server.stop();
      await smtp.close();
    },
  };
}

/** The delivery link (with its recipient) in a mail's text. */
export const deliveryLinkIn = (lanUrl: string, text: string) =>
  new RegExp(`${lanUrl}/d/[A-Za-z0-9_-]+\\?r=[A-Za-z0-9_-]+`).exec(text)?.[0];

/**
 * The admin signed up on `baseUrl`, a client 'Lima Family' with `contacts` ([name, e-mail]), and
 * its project 'Lima Wedding' with `photos` ([file name, colour]) uploaded: answers the project's id.
 */
export async function arrangeLimaWedding(
  baseUrl: string,
  contacts: Array<[string, string]>,
  photos: Array<[string, string]>,
): Promise<{ projectId: number }> {
  const token = await signUpAccount(ADMIN.email, ADMIN.password, "Ada Admin", baseUrl);
  const client = await create<{ id: number }>(token, "clients", { name: "Lima Family" }, baseUrl);
  for (const [name, email] of contacts) await create(token, "contacts", { name, email, clientId: client.id }, baseUrl);
  const project = await create<{ id: number }>(
    token,
    "projects",
    { name: "Lima Wedding", clientId: client.id },
    baseUrl,
  );
  for (const [name, color] of photos)
    await uploadThroughApi(token, project.id, await imageFile(name, "jpeg", color, 640), baseUrl);
  return { projectId: project.id };
}

/** The admin signed in on a desktop of `height` px, on the project's page. */
export async function openProjectAsAdmin(
  browser: Browser,
  baseUrl: string,
  projectId: number,
  height: number,
): Promise<{ studio: BrowserContext; staff: Page }> {
  const studio = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1440, height } });
  studio.setDefaultTimeout(20_000);
  const staff = await studio.newPage();
  await signInAsAdmin(staff, ADMIN.email, ADMIN.password);
  await staff.goto(`/projects/${projectId}`);
  return { studio, staff };
}
