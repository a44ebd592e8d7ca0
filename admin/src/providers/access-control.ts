import type { AccessControlProvider } from "@refinedev/core";
import { http, toHttpError } from "./http";
import { readSession } from "./session";

interface AccessAnswer {
  hasAccess: boolean;
}

// Sider items and buttons ask at the same moment; they share one answer for a short while.
const ACCESS_ANSWER_TTL_MS = 30_000;
let cachedAccess: { uid: string; at: number; answer: Promise<boolean> } | null = null;

/** Whether the signed-in user is approved; a failed or missing answer counts as not approved. */
async function askForAccess(): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    try {
      const { data } = await http.get<AccessAnswer>("/users/me/access");
      return data?.hasAccess === true;
    } catch (error) {
      if (attempt >= 2) {
        console.error("Access check failed:", toHttpError(error).message);
        return false;
      }
    }
  }
}

function hasAccess(uid: string): Promise<boolean> {
  if (!cachedAccess || cachedAccess.uid !== uid || Date.now() - cachedAccess.at > ACCESS_ANSWER_TTL_MS) {
    cachedAccess = { uid, at: Date.now(), answer: askForAccess() };
  }
  return cachedAccess.answer;
}

export function forgetAccess(): void {
  cachedAccess = null;
}

/** The whole app needs approval; the users resource additionally needs the admin role. */
export const accessControlProvider: AccessControlProvider = {
  can: async ({ resource }) => {
    const session = readSession();
    if (!session) return { can: false, reason: "Not signed in" };
    if (!(await hasAccess(session.user.uid))) return { can: false, reason: "Waiting for approval" };
    if (resource === "users" && session.user.role !== "admin") {
      return { can: false, reason: "Only administrators manage users" };
    }
    return { can: true };
  },
  options: {
    buttons: { enableAccessControl: true, hideIfUnauthorized: false },
  },
};
