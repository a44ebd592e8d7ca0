import { IconBrush } from "@tabler/icons-react";
import { AdminNavLink } from "../../ui/layout/admin-nav-link";

/** The navigation's 'Studio' entry: admins only, by the same check as the route's `<CanAccess>`. */
export function StudioNavLink({ pathname }: { pathname: string }) {
  return (
    <AdminNavLink resource="studio" to="/studio" label="Studio" icon={<IconBrush size={20} />} pathname={pathname} />
  );
}
