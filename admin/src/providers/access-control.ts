import type { AccessControlProvider } from "@refinedev/core";
import type { Role } from "../../../api/types";
import { freshAccessToken, http, toHttpError } from "./http";
import { t } from "../i18n";

interface AccessAnswer {
  hasAccess: boolean;
  role?: Role;
}

/** The reason `can` gives when the session turned out to be gone (a 401 even after a refresh). */
export const SIGNED_OUT = "Signed out";

type AccessState = { state: "approved"; role: Role | undefined } | { state: "not-approved" } | { state: "signed-out" };

/**
 * Whether the signed-in user is approved, and their role as stored now; a failed or missing
 * answer counts as not approved. Not cached here: every asker goes through React Query (useCan).
 */
async function askForAccess(): Promise<AccessState> {
  for (let attempt = 1; ; attempt++) {
    try {
      const { data } = await http.get<AccessAnswer>("/users/me/access");
      return data?.hasAccess === true ? { state: "approved", role: data.role } : { state: "not-approved" };
    } catch (error) {
      const { statusCode, message } = toHttpError(error);
      if (statusCode === 401) return { state: "signed-out" };
      if (attempt >= 2) {
        console.error("Access check failed:", message);
        return { state: "not-approved" };
      }
    }
  }
}

const accessRechecks = new EventTarget();

/**
 * Something suggests the user's access changed (a 403 from the API, a live `access-changed`):
 * whoever shows the app by access (the access gate) asks again.
 */
export function recheckAccess(): void {
  accessRechecks.dispatchEvent(new Event("recheck"));
}

export function onAccessRecheck(listener: () => void): () => void {
  accessRechecks.addEventListener("recheck", listener);
  return () => accessRechecks.removeEventListener("recheck", listener);
}

/** Resources only admins open: the users, the studio's settings and the webhooks. */
const ADMIN_ONLY: Record<string, string> = {
  users: "app.onlyAdminsUsers",
  studio: "app.onlyAdminsStudio",
  webhooks: "app.onlyAdminsWebhooks",
};

/** The whole app needs approval; the admin-only resources additionally need the admin role. */
export const accessControlProvider: AccessControlProvider = {
  can: async ({ resource }) => {
    if (!(await freshAccessToken())) return { can: false, reason: SIGNED_OUT };
    const access = await askForAccess();
    if (access.state === "signed-out") return { can: false, reason: SIGNED_OUT };
    if (access.state === "not-approved") return { can: false, reason: t("app.waitingForApproval") };
    if (resource && ADMIN_ONLY[resource] && access.role !== "admin") {
      return { can: false, reason: t(ADMIN_ONLY[resource]) };
    }
    return { can: true };
  },
  options: {
    buttons: { enableAccessControl: true, hideIfUnauthorized: false },
  },
};
