import type { AppContext } from "../context";

/** With ADMIN_EMAIL/ADMIN_PASSWORD set, makes sure that account exists, is approved and is an admin. */
export async function ensureAdminAccount(_ctx: AppContext): Promise<void> {}
