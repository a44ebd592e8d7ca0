import type { ReactNode } from "react";
import { AccessGate } from "../../features/auth/index";
import { AppHeader } from "./app-header";
import { AppLayout } from "./app-layout";
import { AppSider } from "./app-sider";

/**
 * What a signed-in page stands in: the access check, then the header and the navigation around
 * it. A chunk of its own, so the sign-in page loads none of it (its menus, icons and lists).
 */
export function SignedInShell({ requestAccess, children }: { requestAccess: ReactNode; children: ReactNode }) {
  return (
    <AccessGate fallback={requestAccess}>
      <AppLayout Header={AppHeader} Sider={AppSider}>
        {children}
      </AppLayout>
    </AccessGate>
  );
}
