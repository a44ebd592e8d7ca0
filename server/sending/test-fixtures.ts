/** Arrangements for the sending, activity and reminder tests: a studio whose client's project is published. */
import request from "supertest";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll } from "vitest";
import type { AppContext } from "../context";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { insertClientRow, insertContactRow } from "../test/rows";
import { publishDelivery, type PublishedDelivery } from "../delivery/test-fixtures";
import { startSmtpInbox, type ReceivedMail, type SmtpInbox } from "../test/smtp-inbox";
import { mailParts } from "../test/mail-parts";
import { replaceLogo } from "../studio/studio.service";
import { writeStudioRow } from "../studio/studio.repository";
import type { DeliveryActivity } from "../../api/types";

export const PUBLIC_URL = "https://photos.lumen.test";

export async function addContact(ctx: AppContext, clientId: number, name: string, email: string | null) {
  const id = await insertContactRow(ctx, clientId, name);
  await ctx.db("contacts").where({ id }).update({ email });
  return id;
}

/** Brands the studio as staff would in its settings: name, accent, contacts..., and a plain logo of this size. */
export async function brandStudio(
  ctx: AppContext,
  settings: Parameters<typeof writeStudioRow>[1],
  logo: { width: number; height: number },
): Promise<void> {
  await writeStudioRow(ctx.db, settings, new Date().toISOString());
  const png = await sharp({ create: { ...logo, channels: 3, background: "#5c3d2e" } })
    .png()
    .toBuffer();
  await replaceLogo(ctx, png);
}

export interface Studio {
  t: TestApp;
  staff: TestUser;
  clientId: number;
  ana: number;
  luis: number;
  delivery: PublishedDelivery;
}

/** 'Lumen Studio', its staff member Ann, the Lima family (Ana and Luís) and their published wedding. */
export async function studioWithDelivery(smtpUrl: string, env: Record<string, string> = {}): Promise<Studio> {
  const t = await createTestApp({ SMTP_URL: smtpUrl, PUBLIC_URL, STUDIO_NAME: "Lumen Studio", ...env });
  const staff = await createUser(t.ctx, { email: "ann@lumen.test" });
  await t.ctx.db("users").where({ uid: staff.uid }).update({ display_name: "Ann Staff" });
  const clientId = await insertClientRow(t.ctx, "Lima Family");
  const ana = await addContact(t.ctx, clientId, "Ana Lima", "ana@lima.test");
  const luis = await addContact(t.ctx, clientId, "Luís Lima", "luis@lima.test");
  await addContact(t.ctx, clientId, "Grandma Lima", null);
  const delivery = await publishDelivery(t, staff, { clientId, name: "Lima Wedding" });
  return { t, staff, clientId, ana, luis, delivery };
}

/**
 * For a whole test file: one real SMTP inbox (refusing the addresses `refuse` names), and a way to
 * make a fresh studio per test; after each test its app is closed and the inbox emptied.
 */
export function studioFixture(opts: { refuse?: (address: string) => boolean } = {}) {
  let smtp: SmtpInbox;
  let current: Studio | undefined;
  beforeAll(async () => {
    smtp = await startSmtpInbox(opts);
  });
  afterAll(() => smtp.close());
  afterEach(async () => {
    await current?.t.close();
    current = undefined;
    smtp.mails.length = 0;
  });
  return {
    /** Every mail received in this test so far. */
    get mails(): ReceivedMail[] {
      return smtp.mails;
    },
    /** A studio whose mail goes to the inbox (`SMTP_URL: ""` for none); the test's earlier one is closed. */
    async studio(env: Record<string, string> = {}): Promise<Studio> {
      await current?.t.close();
      current = await studioWithDelivery(smtp.url, env);
      return current;
    },
  };
}

/** PUT /api/projects/:id/delivery (expiry, passcode) as the studio's staff member. */
export const setDelivery = (s: Studio, settings: { expiresAt?: string | null; passcode?: string | null }) =>
  request(s.t.app).put(`/api/projects/${s.delivery.id}/delivery`).set(s.staff.auth).send(settings).expect(200);

/**
 * The link's expiry moved into the past as time would move it (the API refuses a past expiry),
 * announced as a change so that no process keeps the link as it was.
 */
export async function expireLink(s: Studio, msAgo: number): Promise<void> {
  await s.t.ctx
    .db("projects")
    .where({ id: s.delivery.id })
    .update({ delivery_expires_at: new Date(Date.now() - msAgo).toISOString() });
  s.t.ctx.events.resourceChanged({ resource: "projects", type: "updated", ids: [s.delivery.id] });
}

export const SUBJECT = "Your photos from Lumen Studio: Lima Wedding";
export const MESSAGE = "Hello,\n\nYour photos are ready.\n\nLumen Studio";

export function sendMail(
  t: TestApp,
  user: TestUser,
  projectId: number,
  body: { contactIds?: number[]; emails?: string[]; subject?: string; message?: string; passcode?: string },
  host?: string,
) {
  const req = request(t.app).post(`/api/projects/${projectId}/sending`).set(user.auth);
  if (host) req.set("Host", host);
  return req.send({ contactIds: [], emails: [], subject: SUBJECT, message: MESSAGE, ...body });
}

/** The link a client's mail carries, as a path on this app (`/d/<token>?r=<key>`). */
export function linkIn(mail: ReceivedMail): string {
  const match = new RegExp(`${PUBLIC_URL}(/d/[A-Za-z0-9_-]+\\?r=[A-Za-z0-9_-]+)`).exec(mailParts(mail.raw).text);
  if (!match) throw new Error(`no delivery link in:\n${mail.raw}`);
  return match[1];
}

/** The mail's own unsubscribe address, as a path on this app. */
export function unsubscribePathIn(mail: ReceivedMail): string {
  const header = mailParts(mail.raw).header("List-Unsubscribe")[0] ?? "";
  const match = new RegExp(`<${PUBLIC_URL}(/unsubscribe/[A-Za-z0-9_-]+)>`).exec(header);
  if (!match) throw new Error(`no List-Unsubscribe in:\n${mail.raw}`);
  return match[1];
}

/** The project's activity as the API answers it, newest first. */
export async function activityOf(t: TestApp, user: TestUser, projectId: number) {
  const res = await request(t.app).get(`/api/projects/${projectId}/activity`).set(user.auth);
  return res.body as DeliveryActivity[];
}
