import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/harness";
import { verifyPassword } from "../auth/passwords";
import { isDatabaseEmpty, seedDemoData } from "./demo";

let t: TestApp;

beforeEach(async () => {
  t = await createTestApp();
});
afterEach(() => t.close());

async function counts() {
  const n = async (table: string) => Number((await t.ctx.db(table).count({ n: "*" }).first())?.n);
  return {
    clients: await n("clients"),
    contacts: await n("contacts"),
    projects: await n("projects"),
    attachments: await n("attachments"),
    users: await n("users"),
  };
}

// The seed draws and stores its demo photos (sharp): 5–14 s a test on this 2-core machine, over 20 s under load.
describe("the demo seed", { timeout: 60_000 }, () => {
  it("fills an empty database with studio clients, contacts and projects, some without a client", async () => {
    expect(await isDatabaseEmpty(t.ctx.db)).toBe(true);
    await seedDemoData(t.ctx, { createAdmin: false });
    expect(await isDatabaseEmpty(t.ctx.db)).toBe(false);
    const now = await counts();
    expect(now.clients).toBeGreaterThanOrEqual(3);
    expect(now.contacts).toBeGreaterThanOrEqual(now.clients);
    expect(now.projects).toBeGreaterThanOrEqual(6);
    expect(now.projects).toBeLessThanOrEqual(8);
    expect(now.users).toBe(0);
    expect(await t.ctx.db("projects").whereNull("client_id").count({ n: "*" }).first()).toMatchObject({ n: 2 });
    const contact = await t.ctx.db("contacts").whereNotNull("email").first();
    expect(contact.email).toContain("@");
  });

  it("creates one approved admin whose generated password verifies, and adds nothing when run again", async () => {
    const admin = await seedDemoData(t.ctx, { createAdmin: true });
    expect(admin?.email).toBe("admin@photodrop.local");
    expect(admin?.password.length).toBeGreaterThanOrEqual(12);
    const row = await t.ctx.db("users").where({ email: "admin@photodrop.local" }).first();
    expect(row).toMatchObject({ role: "admin" });
    expect(Boolean(row.has_access)).toBe(true);
    expect(Boolean(row.email_verified)).toBe(true);
    expect(row.password_hash).not.toContain(admin!.password);
    expect(await verifyPassword(admin!.password, row.password_hash)).toBe(true);

    const before = await counts();
    expect(await seedDemoData(t.ctx, { createAdmin: true })).toBeUndefined();
    expect(await counts()).toEqual(before);
  });

  it("does not count a database with only a user as empty", async () => {
    await t.ctx.db("users").insert({
      uid: "u1",
      email: "someone@example.test",
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
    });
    expect(await isDatabaseEmpty(t.ctx.db)).toBe(false);
  });
});
