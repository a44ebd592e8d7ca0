import type { AppContext } from "../context";
import type { Db } from "../db/database";

export async function isDatabaseEmpty(db: Db): Promise<boolean> {
  const [users, clients, projects] = await Promise.all(
    ["users", "clients", "projects"].map((t) => db(t).count({ n: "*" }).first()),
  );
  return Number(users?.n) + Number(clients?.n) + Number(projects?.n) === 0;
}

/** Loads the demo data; returns the generated admin credentials when it created the admin. */
export async function seedDemoData(_ctx: AppContext, _opts: { createAdmin: boolean }): Promise<{ email: string; password: string } | undefined> {
  return undefined;
}
