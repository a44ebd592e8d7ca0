import { Badge, NavLink } from "@mantine/core";
import { CanAccess } from "@refinedev/core";
import { IconUserCheck } from "@tabler/icons-react";
import { Link } from "react-router";
import { usePendingCount } from "./use-pending-count";

function UsersLink({ active }: { active: boolean }) {
  const pending = usePendingCount();
  return (
    <NavLink
      component={Link}
      to="/users"
      label="Users"
      icon={<IconUserCheck size={20} />}
      active={active}
      rightSection={
        pending ? (
          <Badge
            color="red"
            variant="filled"
            size="sm"
            aria-label={`${pending} pending access ${pending === 1 ? "request" : "requests"}`}
          >
            {pending}
          </Badge>
        ) : null
      }
    />
  );
}

/** The navigation's 'Users' entry: admins only, with the number of pending access requests. */
export function UsersNavLink({ pathname }: { pathname: string }) {
  return (
    <CanAccess resource="users" action="list">
      <UsersLink active={pathname === "/users"} />
    </CanAccess>
  );
}
