import { useCallback, useEffect, type ReactNode } from "react";
import { Center, Loader } from "@mantine/core";
import { useCan, useLogout } from "@refinedev/core";
import { useAccessWatch } from "../users/index";
import { EnrolmentGate } from "./enrolment-gate";
import { SIGNED_OUT } from "../../providers/access-control";
import { t } from "../../i18n";

// Never reuse an answer across sign-ins (gcTime 0 drops it when the gate unmounts at logout), and
// check again whenever the tab regains focus so an approval shows without signing in again.
const accessQueryOptions = { retry: false, staleTime: 0, gcTime: 0 };
/** The fallback for a waiting user when the live socket is down; live, an approval lets them in at once. */
const WAITING_POLL_MS = 30_000;

/**
 * Shows the app only to approved users; everyone else (including when the check fails) gets
 * `fallback`. An approved user the studio requires two-factor sign-in of goes to enrolment first. The access-control provider already retries the check once.
 */
export function AccessGate({ children, fallback }: { children: ReactNode; fallback: ReactNode }) {
  const { data, isLoading, refetch } = useCan({ resource: "app", action: "use", queryOptions: accessQueryOptions });
  const { mutate: logout } = useLogout();
  const signedOut = data?.reason === SIGNED_OUT;
  const recheck = useCallback(() => void refetch(), [refetch]);
  // Approval lets a waiting user in, revocation sends an open app back to the request screen.
  useAccessWatch(recheck, { waiting: !isLoading && !data?.can, pollMs: WAITING_POLL_MS });

  useEffect(() => {
    if (signedOut) logout();
  }, [signedOut, logout]);

  if (isLoading || signedOut) {
    return (
      <Center h="100vh">
        <Loader aria-label={t("auth.checkingAccess")} />
      </Center>
    );
  }
  return <>{data?.can ? <EnrolmentGate>{children}</EnrolmentGate> : fallback}</>;
}
