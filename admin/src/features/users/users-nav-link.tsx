import { useEffect } from "react";
import { Badge, NavLink } from "@mantine/core";
import { useCan } from "@refinedev/core";
import { IconUserCheck } from "@tabler/icons-react";
import { Link } from "react-router";
import { onAccessRecheck } from "../../providers/access-control";
import { usePendingCount } from "./use-pending-count";
import { t } from "../../i18n";

function UsersLink({ active }: { active: boolean }) {
  const pending = usePendingCount();
  return (
    <NavLink
      component={Link}
      to="/users"
      label={t("users.users")}
      icon={<IconUserCheck size={20} />}
      active={active}
      rightSection={
        pending ? (
          <Badge color="red" variant="filled" size="sm" aria-label={t("users.pendingRequests", { count: pending })}>
            {pending}
          </Badge>
        ) : null
      }
    />
  );
}

/**
 * The navigation's 'Users' entry: admins only, with the number of pending access requests. The
 * same check as the route's `<CanAccess>` (one query), asked again when the user's own access or
 * role changes (a live `access-changed`, a 403), so a promotion or demotion shows at once.
 */
export function UsersNavLink({ pathname }: { pathname: string }) {
  const { data, refetch } = useCan({ resource: "users", action: "list" });
  useEffect(() => onAccessRecheck(() => void refetch()), [refetch]);
  if (!data?.can) return null;
  return <UsersLink active={pathname === "/users"} />;
}
