import { useEffect, type ReactNode } from "react";
import { Center, Loader } from "@mantine/core";
import { useCan, useLogout } from "@refinedev/core";
import { SIGNED_OUT } from "../../providers/access-control";

// Never reuse an answer across sign-ins (gcTime 0 drops it when the gate unmounts at logout), and
// check again whenever the tab regains focus so an approval shows without signing in again.
const accessQueryOptions = { retry: false, staleTime: 0, gcTime: 0 };

/**
 * Shows the app only to approved users; everyone else (including when the check fails) gets
 * `fallback`. The access-control provider already retries the check once.
 */
export function AccessGate({ children, fallback }: { children: ReactNode; fallback: ReactNode }) {
  const { data, isLoading } = useCan({ resource: "app", action: "use", queryOptions: accessQueryOptions });
  const { mutate: logout } = useLogout();
  const signedOut = data?.reason === SIGNED_OUT;

  useEffect(() => {
    if (signedOut) logout();
  }, [signedOut, logout]);

  if (isLoading || signedOut) {
    return (
      <Center h="100vh">
        <Loader aria-label="Checking access" />
      </Center>
    );
  }
  return <>{data?.can ? children : fallback}</>;
}
