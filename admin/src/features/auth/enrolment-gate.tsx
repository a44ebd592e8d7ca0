import { useEffect, useState, type ReactNode } from "react";
import { Center, Loader } from "@mantine/core";
import { useCustom } from "@refinedev/core";
import { Navigate, useLocation } from "react-router";
import { ENROLMENT_PATH, onEnrolmentRequired } from "../../providers/auth-provider";
import { t } from "../../i18n";

interface TwoFactorStatus {
  enabled: boolean;
  /** The studio requires it of everyone. */
  required: boolean;
}

/**
 * While the studio requires two-factor sign-in and this user has none, every screen but the
 * Security page (where it is turned on) leads there. Asked again when the API refuses a request for
 * that reason, and on every move while enrolment is still owed (it may just have been done).
 */
export function EnrolmentGate({ children }: { children: ReactNode }) {
  const { pathname, key } = useLocation();
  const { result, query } = useCustom<TwoFactorStatus>({
    url: "/users/me/two-factor",
    method: "get",
    queryOptions: { staleTime: 0, gcTime: 0, retry: 1 },
    errorNotification: false,
  });
  const status = result.data as TwoFactorStatus | undefined;
  const mustEnrol = Boolean(status?.required && !status.enabled);
  const { refetch } = query;
  const heldBack = mustEnrol && pathname !== ENROLMENT_PATH;
  /**
   * The move (location key, new on every navigation, even back to the same address) the status was
   * last asked again for: a screen is left only on an answer fresh for this very move, never on one
   * from an earlier visit to the same address.
   */
  const [checkedFor, setCheckedFor] = useState<string | null>(null);

  useEffect(() => onEnrolmentRequired(() => void refetch()), [refetch]);
  useEffect(() => {
    if (!heldBack) return;
    let current = true;
    void refetch().finally(() => current && setCheckedFor(key));
    return () => {
      current = false;
    };
  }, [heldBack, key, refetch]);

  if (heldBack && checkedFor === key) return <Navigate to={ENROLMENT_PATH} replace />;
  if (query.isLoading || heldBack) {
    return (
      <Center h="100vh">
        <Loader aria-label={t("auth.checkingAccess")} />
      </Center>
    );
  }
  return <>{children}</>;
}
