import { Badge, Group } from "@mantine/core";
import type { Project } from "../../../../api/types";
import { formatDateTime } from "../../lib/format";
import { usePassed } from "../../lib/use-passed";
import { t } from "../../i18n";

/** Live, expired or not published; view-only; passcode; when it expires. */
export function DeliveryLinkState({ project }: { project: Project }) {
  const { expiresAt, hasPasscode } = project.delivery;
  // Turns at the moment of expiry, as the server's answers do (410 from then on).
  const expired = usePassed(expiresAt);
  return (
    <Group spacing={6}>
      {project.deliveryUrl ? (
        <Badge color={expired ? "red" : "green"}>{expired ? t("delivery.expired") : t("delivery.live")}</Badge>
      ) : (
        <Badge color="gray">{t("delivery.notPublished")}</Badge>
      )}
      {project.deliveryUrl && !project.delivery.allowDownloads && <Badge color="gray">{t("delivery.viewOnly")}</Badge>}
      {hasPasscode && <Badge color="violet">{t("delivery.passcode")}</Badge>}
      {expiresAt && !expired && (
        <Badge color="blue">{t("delivery.expires", { expiresAt: formatDateTime(expiresAt) })}</Badge>
      )}
    </Group>
  );
}
