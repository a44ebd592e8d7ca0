import { useEffect, type ReactNode } from "react";
import { NavLink } from "@mantine/core";
import { useCan } from "@refinedev/core";
import { Link } from "react-router";
import { onAccessRecheck } from "../../providers/access-control";

/** A navigation entry shown only to who may list `resource`: the same check as its route's `<CanAccess>`. */
export function AdminNavLink({
  resource,
  to,
  label,
  icon,
  pathname,
}: {
  resource: string;
  to: string;
  label: string;
  icon: ReactNode;
  pathname: string;
}) {
  const { data, refetch } = useCan({ resource, action: "list" });
  useEffect(() => onAccessRecheck(() => void refetch()), [refetch]);
  if (!data?.can) return null;
  return <NavLink component={Link} to={to} label={label} icon={icon} active={pathname === to} />;
}
