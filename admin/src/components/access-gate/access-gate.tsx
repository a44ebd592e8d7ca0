import type { ReactNode } from "react";
import { Center, Loader } from "@mantine/core";
import { useCan } from "@refinedev/core";

/**
 * Shows the app only to approved users; everyone else (including when the check fails) gets
 * `fallback`. The access-control provider already retries the check once.
 */
export function AccessGate({ children, fallback }: { children: ReactNode; fallback: ReactNode }) {
  const { data, isLoading } = useCan({ resource: "app", action: "use", queryOptions: { retry: false } });
  if (isLoading) {
    return (
      <Center h="100vh">
        <Loader aria-label="Checking access" />
      </Center>
    );
  }
  return <>{data?.can ? children : fallback}</>;
}
