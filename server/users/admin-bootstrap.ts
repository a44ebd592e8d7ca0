import type { AppContext } from "../context";
import { hashPassword, verifyPassword } from "../auth/passwords";
import { endEverySession } from "../auth/sessions";
import { findUserRowByEmail, insertUser, updateUserRow, type UserPatch } from "./users.repository";

/**
 * With ADMIN_EMAIL/ADMIN_PASSWORD set, makes sure that account exists, is approved and is an admin.
 * ADMIN_PASSWORD stays the source of truth: when the stored password differs (changed by a reset,
 * or the variable was changed), it is set back at start and the account's sessions are revoked.
 */
export async function ensureAdminAccount(ctx: AppContext): Promise<void> {
  const admin = ctx.config.admin;
  if (!admin) return;
  const existing = await findUserRowByEmail(ctx.db, admin.email);
  if (!existing) {
    const row = await insertUser(ctx.db, {
      email: admin.email,
      passwordHash: await hashPassword(admin.password),
      role: "admin",
      hasAccess: true,
    });
    ctx.logger.info({ uid: row.uid, email: row.email }, "admin account created from ADMIN_EMAIL");
    return;
  }
  const patch: UserPatch = {};
  if (existing.role !== "admin") patch.role = "admin";
  if (!existing.has_access) patch.has_access = true;
  const passwordMatches = existing.password_hash ? await verifyPassword(admin.password, existing.password_hash) : false;
  if (!passwordMatches) patch.password_hash = await hashPassword(admin.password);
  if (Object.keys(patch).length === 0) return;
  await updateUserRow(ctx.db, existing.uid, patch);
  if (!passwordMatches) await endEverySession(ctx.db, existing.uid);
  ctx.events.userChanged(existing.uid);
  ctx.logger.info(
    { uid: existing.uid, email: existing.email, passwordReset: !passwordMatches },
    "admin account brought in line with ADMIN_EMAIL",
  );
}
