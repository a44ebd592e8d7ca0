import { useEffect } from "react";
import { NavLink } from "@mantine/core";
import { useCan } from "@refinedev/core";
import { IconWebhook } from "@tabler/icons-react";
import { Link } from "react-router";
import { onAccessRecheck } from "../../providers/access-control";

/** The navigation's 'Webhooks' entry: admins only, by the same check as the route's `<CanAccess>`. */
export function WebhooksNavLink({ pathname }: { pathname: string }) {
  const { data, refetch } = useCan({ resource: "webhooks", action: "list" });
  useEffect(() => onAccessRecheck(() => void refetch()), [refetch]);
  if (!data?.can) return null;
  return (
    <NavLink
      component={Link}
      to="/webhooks"
      label="Webhooks"
      icon={<IconWebhook size={20} />}
      active={pathname === "/webhooks"}
    />
  );
}
