import type { Knex } from "knex";
import type { AppContext } from "../context";
import type { Db } from "../db/database";
import { generatePassword, hashPassword } from "../auth/passwords";
import { findUserRowByEmail, insertUser } from "../users/users.repository";
import { seedDemoAttachments } from "../attachments/demo-attachments";
import { DEMO_PROJECTS } from "../../seeds/02_demo_projects";
import { runtimeModules } from "../runtime-modules";

export const DEMO_ADMIN_EMAIL = "admin@photodrop.local";

/** Whether any user, client or project exists: one row looked up per table, whatever their size. */
export async function isDatabaseEmpty(db: Db): Promise<boolean> {
  const found = await Promise.all(["users", "clients", "projects"].map((t) => db(t).first(db.raw("1 AS found"))));
  return found.every((row) => row === undefined);
}

/**
 * Runs the knex-style seed files in /seeds, in name order, in one transaction. They are loaded
 * through the app's own module loader (as the migrations are): the TypeScript sources, or their
 * compiled copies in the production build.
 */
async function runSeedFiles(db: Db): Promise<void> {
  const seeds: Array<{ seed: (knex: Knex) => Promise<void> }> = [];
  for (const file of runtimeModules("seeds", /^\d+_[\w-]+\.ts$/))
    seeds.push((await file.load()) as { seed: (knex: Knex) => Promise<void> });
  await db.transaction(async (trx) => {
    for (const module of seeds) await module.seed(trx);
  });
}

async function createDemoAdmin(db: Db): Promise<{ email: string; password: string } | undefined> {
  if (await findUserRowByEmail(db, DEMO_ADMIN_EMAIL)) return undefined;
  const password = generatePassword();
  await insertUser(db, {
    email: DEMO_ADMIN_EMAIL,
    passwordHash: await hashPassword(password),
    displayName: "Studio Admin",
    emailVerified: true,
    role: "admin",
    hasAccess: true,
  });
  return { email: DEMO_ADMIN_EMAIL, password };
}

/**
 * Loads the demo data; returns the generated admin credentials when it created the admin.
 * Safe to run again: seeds skip what exists, the admin is created once, and photos are only
 * added to demo projects that have none yet.
 */
export async function seedDemoData(
  ctx: AppContext,
  opts: { createAdmin: boolean },
): Promise<{ email: string; password: string } | undefined> {
  await runSeedFiles(ctx.db);
  const admin = opts.createAdmin ? await createDemoAdmin(ctx.db) : undefined;
  const bare = (await ctx
    .db("projects")
    .whereIn(
      "name",
      DEMO_PROJECTS.map((p) => p.name),
    )
    .whereNotExists(
      ctx.db("attachments").select(ctx.db.raw("1")).where("attachments.project_id", ctx.db.ref("projects.id")),
    )
    .orderBy("id")
    .pluck("id")) as number[];
  await seedDemoAttachments(ctx, bare);
  ctx.logger.info({ admin: admin?.email }, "demo data loaded");
  return admin;
}
