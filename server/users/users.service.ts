import type { AccessRequest, ManagedUser, User } from "../../api/types";
import type { AppContext } from "../context";
import { nowIso } from "../db/database";
import { serializable } from "../db/transactions";
import { ConflictError, NotFoundError } from "../http/errors";
import { StaleRecordError, versionMatches, type Edit } from "../http/record-version";
import type { ListQuery } from "../http/list-query";
import { deleteAccessRequest, saveAccessRequest } from "./access-requests.repository";
import { mailAccessRequest, mailApproval, type MailRoute } from "./access-mail";
import type { ProfileChange, UserChange } from "./users.schema";
import {
  countApprovedAdminsExcept,
  findManagedUser,
  findUserRow,
  listManagedUsers,
  toUser,
  updateUserAccess,
  updateUserRow,
  type UserListOptions,
  type UserPatch,
} from "./users.repository";
import { recordWebhookEvent } from "../webhooks/outbox";

/** What the users list may filter and sort by (the router parses the query with it). */
export { usersListSpec } from "./users.repository";

export async function updateProfile(ctx: AppContext, uid: string, change: ProfileChange): Promise<User> {
  const patch: UserPatch = {};
  if (change.displayName !== undefined) patch.display_name = change.displayName;
  if (change.phoneNumber !== undefined) patch.phone_number = change.phoneNumber;
  if (change.language !== undefined) patch.language = change.language;
  await updateUserRow(ctx.db, uid, patch);
  const row = await findUserRow(ctx.db, uid);
  if (!row) throw new NotFoundError("User not found");
  if (Object.keys(patch).length > 0) ctx.events.resourceChanged({ resource: "users", type: "updated", ids: [uid] });
  return toUser(row);
}

/**
 * An approved user has nothing to ask for; anyone else records (or renews) one request. The
 * admins are mailed once per request: asking again only updates the message they see in Users.
 */
export async function requestAccess(
  ctx: AppContext,
  user: User,
  message: string | null,
  mail: MailRoute,
): Promise<{ created: boolean; hasAccess: boolean; accessRequest: AccessRequest | null }> {
  if (user.hasAccess) return { created: false, hasAccess: true, accessRequest: null };
  const { created, request } = await saveAccessRequest(ctx.db, user.uid, message);
  if (created) await recordWebhookEvent(ctx.db, "access.requested", { uid: user.uid, message });
  ctx.logger.info({ uid: user.uid }, "access requested");
  ctx.events.resourceChanged({ resource: "users", type: "updated", ids: [user.uid] });
  if (created) mailAccessRequest(ctx, mail, user, message);
  return { created, hasAccess: false, accessRequest: request };
}

export function listUsers(ctx: AppContext, list: ListQuery, options: UserListOptions = {}) {
  return listManagedUsers(ctx.reads, list, options);
}

export async function getUser(ctx: AppContext, uid: string): Promise<ManagedUser> {
  const user = await findManagedUser(ctx.db, uid);
  if (!user) throw new NotFoundError("User not found");
  return user;
}

/**
 * Approves, revokes or changes the role of a user. Nobody can take away their own access or admin
 * role, and the last approved admin can never lose either: the count and the update share a
 * serializable transaction, so two admins demoting each other at once, in one process or
 * several, cannot leave none. The same transaction checks the If-Match (StaleRecordError), so two
 * admins saving the same version cannot both succeed.
 */
export async function changeUser(
  ctx: AppContext,
  actor: User,
  uid: string,
  change: UserChange,
  mail?: MailRoute,
  edit: Edit = { by: actor.uid, condition: "any" },
): Promise<ManagedUser> {
  const approved = await serializable(ctx.db, async (trx) => {
    const row = await findUserRow(trx, uid);
    if (!row) throw new NotFoundError("User not found");
    if (!versionMatches(edit.condition, Number(row.version))) throw new StaleRecordError();
    const losesAccess = change.hasAccess === false && Boolean(row.has_access);
    const losesAdmin = change.role === "staff" && row.role === "admin";
    if (uid === actor.uid && losesAccess) throw new ConflictError("You cannot revoke your own access");
    if (uid === actor.uid && losesAdmin) throw new ConflictError("You cannot remove your own admin role");
    const isApprovedAdmin = row.role === "admin" && Boolean(row.has_access);
    if (isApprovedAdmin && (losesAccess || losesAdmin) && (await countApprovedAdminsExcept(trx, uid)) === 0) {
      throw new ConflictError("The last admin cannot lose access or the admin role");
    }
    const patch: UserPatch = {};
    if (change.hasAccess !== undefined) patch.has_access = change.hasAccess;
    if (change.role !== undefined) patch.role = change.role;
    if (losesAccess) patch.access_revoked_at = nowIso();
    if (change.hasAccess === true) patch.access_revoked_at = null;
    await updateUserAccess(trx, uid, patch, edit);
    // An approved request has been answered; a later revocation starts from a clean slate.
    if (change.hasAccess === true) await deleteAccessRequest(trx, uid);
    return change.hasAccess === true && !row.has_access ? { uid: row.uid, email: row.email } : undefined;
  });
  ctx.logger.info({ by: actor.uid, uid, ...change }, "user access changed");
  ctx.events.resourceChanged({ resource: "users", type: "updated", ids: [uid] });
  if (approved && mail) mailApproval(ctx, mail, approved);
  return getUser(ctx, uid);
}
