import type { AccessState, ManagedUser, Role } from "../../../../api/types";

export type { AccessState, ManagedUser, Role };

export const ROLE_LABELS: Record<Role, string> = { admin: "Admin", staff: "Staff" };

export const ACCESS_LABELS: Record<AccessState, string> = {
  approved: "Approved",
  pending: "Pending",
  revoked: "Revoked",
  none: "Not requested",
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
  { value: "pending", label: "Pending" },
  { value: "approved", label: "Approved" },
  { value: "all", label: "All" },
];

/** Approve lets in anyone without access; Revoke takes it from anyone who has it. */
export const canApprove = (user: ManagedUser) => !user.hasAccess;
