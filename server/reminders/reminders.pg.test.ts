import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RELAXED_LIMITS } from "../auth/auth-test-helpers";
import { dataFolders, startAppProcess, type AppProcess } from "../test/app-process";
import { createTestApp, createUser, type TestApp } from "../test/harness";
import { createTestDatabase, type TestDatabase } from "../test/test-database";
import { insertClientRow } from "../test/rows";
import { startSmtpInbox, type SmtpInbox } from "../test/smtp-inbox";
import { mailParts } from "../test/mail-parts";
import { until } from "../test/wait";
import { publishDelivery } from "../delivery/test-fixtures";
import { addContact, PUBLIC_URL } from "../sending/test-fixtures";

/**
 * Two real Photodrop processes on one PostgreSQL database, each looking for due reminders every
 * second: each recipient gets one reminder, and a restart of both sends none again while still
 * sending one that fell due while they were down.
 */
let dir: string;
let database: TestDatabase;
let smtp: SmtpInbox;
let env: Record<string, string>;
let a: AppProcess;
let b: AppProcess;
/** In-process access to the same database and folders, to arrange the studio and move time. */
let local: TestApp;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-reminders-"));
  database = await createTestDatabase(dir);
  smtp = await startSmtpInbox();
  env = {
    ...RELAXED_LIMITS,
    DATABASE_URL: database.url,
    ...dataFolders(dir),
    SMTP_URL: smtp.url,
    PUBLIC_URL,
    STUDIO_NAME: "Lumen Studio",
    REMINDER_CHECK_SECONDS: "1",
    LOG_LEVEL: "debug",
  };
  a = await startAppProcess(env);
  b = await startAppProcess(env);
  local = await createTestApp({ ...env, LOG_LEVEL: "silent" });
}, 120_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await local?.close();
  await smtp?.close();
  await database?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const DAY = 24 * 3600 * 1000;

const remindersTo = (email: string) =>
  smtp.mails.filter((m) => m.to.includes(email) && mailParts(m.raw).header("Subject")[0]?.startsWith("Reminder:"));

/** The process's completed looks for due reminders so far (its debug log line). */
const checksOf = (p: AppProcess) => p.log().split('"msg":"delivery mail check"').length - 1;

const mailedDaysAgo = (email: string, days: number) =>
  local.ctx
    .db("delivery_recipients")
    .where({ email })
    .update({ sent_at: new Date(Date.now() - days * DAY).toISOString() });

describe("reminders with two processes", () => {
  it("sends each reminder exactly once, across two processes and a restart of both", async () => {
    const staff = await createUser(local.ctx, { email: "ann@lumen.test" });
    const clientId = await insertClientRow(local.ctx, "Lima Family");
    const ana = await addContact(local.ctx, clientId, "Ana Lima", "ana@lima.test");
    const luis = await addContact(local.ctx, clientId, "Luís Lima", "luis@lima.test");
    const delivery = await publishDelivery(local, staff, { clientId, name: "Lima Wedding" });
    await request(a.url)
      .put(`/api/projects/${delivery.id}/delivery`)
      .set(staff.auth)
      .send({ expiresAt: new Date(Date.now() + 2 * DAY).toISOString() })
      .expect(200);
    const sent = await request(b.url)
      .post(`/api/projects/${delivery.id}/sending`)
      .set(staff.auth)
      .send({ contactIds: [ana, luis], emails: ["friend@else.test"], subject: "Your photos", message: "Hello" });
    expect(sent.body).toMatchObject({ sent: ["ana@lima.test", "luis@lima.test", "friend@else.test"], failed: [] });

    // Ana's and Luís's mails went out two days ago: due now, for whichever process looks first.
    await mailedDaysAgo("ana@lima.test", 2);
    await mailedDaysAgo("luis@lima.test", 2);
    await until(
      () => remindersTo("ana@lima.test").length + remindersTo("luis@lima.test").length,
      (n) => n >= 2,
      60_000,
    );

    // Both stop; the friend's reminder falls due while nothing runs, and is found at the next start.
    await Promise.all([a.stop(), b.stop()]);
    await mailedDaysAgo("friend@else.test", 2);
    a = await startAppProcess(env);
    b = await startAppProcess(env);
    await until(
      () => remindersTo("friend@else.test").length,
      (n) => n >= 1,
      60_000,
    );
    const [checksA, checksB] = [checksOf(a), checksOf(b)];
    await until(
      () => [checksOf(a), checksOf(b)],
      ([nowA, nowB]) => nowA >= checksA + 2 && nowB >= checksB + 2,
      60_000,
    );

    for (const email of ["ana@lima.test", "luis@lima.test", "friend@else.test"])
      expect(remindersTo(email)).toHaveLength(1);
    const rows = await local.ctx.db("delivery_activity").where({ project_id: delivery.id, type: "reminder" });
    expect(rows).toHaveLength(3);
    // Four process starts: slow on a loaded machine.
  }, 240_000);
});
