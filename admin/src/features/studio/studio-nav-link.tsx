import { useEffect } from "react";
import { NavLink } from "@mantine/core";
import { useCan } from "@refinedev/core";
import { IconBrush } from "@tabler/icons-react";
import { Link } from "react-router";
import { onAccessRecheck } from "../../providers/access-control";

/** The navigation's 'Studio' entry: admins only, by the same check as the route's `<CanAccess>`. */
export function StudioNavLink({ pathname }: { pathname: string }) {
  const { data, refetch } = useCan({ resource: "studio", action: "list" });
  useEffect(() => onAccessRecheck(() => void refetch()), [refetch]);
  if (!data?.can) return null;
  return (
    <NavLink
      component={Link}
      to="/studio"
      label="Studio"
      icon={<IconBrush size={20} />}
      active={pathname === "/studio"}
    />
  );
}
