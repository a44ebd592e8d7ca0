import type { AccessState, ManagedUser, Role } from "../../../../api/types";

export type { AccessState, ManagedUser, Role };

/** Catalogue keys: the screens show t(ROLE_LABELS[role]). */
export const ROLE_LABELS: Record<Role, string> = { admin: "users.roleAdmin", staff: "users.roleStaff" };

export const ACCESS_LABELS: Record<AccessState, string> = {
  approved: "users.approved",
  pending: "users.pending",
  revoked: "users.revoked",
  none: "users.notRequested",
};

export const ACCESS_COLORS: Record<AccessState, string> = {
  approved: "green",
  pending: "orange",
  revoked: "red",
  none: "gray",
};

/** The segmented filter over the list: a state, or every user. */
export type AccessFilter = "pending" | "approved" | "all";

export const ACCESS_FILTERS: Array<{ value: AccessFilter; label: string }> = [
  { value: "pending", label: "users.pending" },
  { value: "approved", label: "users.approved" },
  { value: "all", label: "users.all" },
];

/** Approve lets in anyone without access; Revoke takes it from anyone who has it. */
export const canApprove = (user: ManagedUser) => !user.hasAccess;
