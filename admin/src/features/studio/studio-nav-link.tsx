import { IconBrush } from "@tabler/icons-react";
import { AdminNavLink } from "../../ui/layout/admin-nav-link";
import { t } from "../../i18n";

/** The navigation's 'Studio' entry: admins only, by the same check as the route's `<CanAccess>`. */
export function StudioNavLink({ pathname }: { pathname: string }) {
  return (
    <AdminNavLink
      resource="studio"
      to="/studio"
      label={t("studio.studio")}
      icon={<IconBrush size={20} />}
      pathname={pathname}
    />
  );
}
