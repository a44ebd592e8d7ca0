import { useList } from "@refinedev/core";
import type { ManagedUser } from "./access-labels";

export const PENDING_FILTER = { field: "access", operator: "eq", value: "pending" } as const;

/**
 * How many users are waiting for an answer to their access request (X-Total-Count of a one-row
 * page), kept live by the `users` events. Admin-only: render it inside `<CanAccess resource="users">`.
 */
export function usePendingCount(): number | undefined {
  const { result, query } = useList<ManagedUser>({
    resource: "users",
    filters: [PENDING_FILTER],
    pagination: { currentPage: 1, pageSize: 1 },
    errorNotification: false,
  });
  if (query.isLoading || query.isError) return undefined;
  return result.total ?? 0;
}
