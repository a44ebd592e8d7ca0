import { Badge, Group } from "@mantine/core";
import type { Project } from "../../../../api/types";
import { formatDateTime } from "../../lib/format";
import { usePassed } from "../../lib/use-passed";

/** Live, expired or not published; view-only; passcode; when it expires. */
export function DeliveryLinkState({ project }: { project: Project }) {
  const { expiresAt, hasPasscode } = project.delivery;
  // Turns at the moment of expiry, as the server's answers do (410 from then on).
  const expired = usePassed(expiresAt);
  return (
    <Group spacing={6}>
      {project.deliveryUrl ? (
        <Badge color={expired ? "red" : "green"}>{expired ? "Expired" : "Live"}</Badge>
      ) : (
        <Badge color="gray">Not published</Badge>
      )}
      {project.deliveryUrl && !project.delivery.allowDownloads && <Badge color="gray">View-only</Badge>}
      {hasPasscode && <Badge color="violet">Passcode</Badge>}
      {expiresAt && !expired && <Badge color="blue">Expires {formatDateTime(expiresAt)}</Badge>}
    </Group>
  );
}
