import type { AccessControlProvider } from "@refinedev/core";
import { http, toHttpError } from "./http";
import { readSession } from "./session";

interface AccessAnswer {
  hasAccess: boolean;
}

/** The reason `can` gives when the session turned out to be gone (a 401 even after a refresh). */
export const SIGNED_OUT = "Signed out";

type AccessState = "approved" | "not-approved" | "signed-out";

/**
 * Whether the signed-in user is approved; a failed or missing answer counts as not approved.
 * Not cached here: the one asker (AccessGate) goes through React Query, which shares a request
 * in flight and asks again when the tab regains focus, so an approval shows without a reload.
 */
async function askForAccess(): Promise<AccessState> {
  for (let attempt = 1; ; attempt++) {
    try {
      const { data } = await http.get<AccessAnswer>("/users/me/access");
      return data?.hasAccess === true ? "approved" : "not-approved";
    } catch (error) {
      const { statusCode, message } = toHttpError(error);
      if (statusCode === 401) return "signed-out";
      if (attempt >= 2) {
        console.error("Access check failed:", message);
        return "not-approved";
      }
    }
  }
}


/** The whole app needs approval; the users resource additionally needs the admin role. */
export const accessControlProvider: AccessControlProvider = {
  can: async ({ resource }) => {
    const session = readSession();
    if (!session) return { can: false, reason: SIGNED_OUT };
    const state = await askForAccess();
    if (state === "signed-out") return { can: false, reason: SIGNED_OUT };
    if (state === "not-approved") return { can: false, reason: "Waiting for approval" };
    if (resource === "users" && session.user.role !== "admin") {
      return { can: false, reason: "Only administrators manage users" };
    }
    return { can: true };
  },
  options: {
    buttons: { enableAccessControl: true, hideIfUnauthorized: false },
  },
};
