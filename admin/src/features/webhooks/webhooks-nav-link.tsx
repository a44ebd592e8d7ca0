import { IconWebhook } from "@tabler/icons-react";
import { AdminNavLink } from "../../ui/layout/admin-nav-link";
import { t } from "../../i18n";

/** The navigation's 'Webhooks' entry: admins only, by the same check as the route's `<CanAccess>`. */
export function WebhooksNavLink({ pathname }: { pathname: string }) {
  return (
    <AdminNavLink
      resource="webhooks"
      to="/webhooks"
      label={t("webhooks.webhooks")}
      icon={<IconWebhook size={20} />}
      pathname={pathname}
    />
  );
}
