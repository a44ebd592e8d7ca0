import { useState } from "react";
import { Button, Card, Center, Divider, Loader, Stack, Text, ThemeIcon, Timeline, Title } from "@mantine/core";
import { useList } from "@refinedev/core";
import {
  IconAlertTriangle,
  IconBellRinging,
  IconClockOff,
  IconDownload,
  IconEye,
  IconLock,
  IconPhoto,
  IconRefresh,
  IconSend,
} from "@tabler/icons-react";
import type { DeliveryActivity, DeliveryActivityType, Project } from "../../../../api/types";
import { formatDateTime } from "../../lib/format";
import { describeActivity } from "./activity-text";
import { ReminderSetting } from "./reminder-setting";
import { useProjectChanges } from "./use-project-changes";
import { t } from "../../i18n";

const PAGE = 10;

const ICONS: Record<DeliveryActivityType, typeof IconSend> = {
  sent: IconSend,
  reminder: IconBellRinging,
  views: IconEye,
  download: IconDownload,
  photo_download: IconPhoto,
  passcode_failures: IconLock,
  link_regenerated: IconRefresh,
  expired: IconClockOff,
};

function ActivityItemBullet({ type }: { type: DeliveryActivityType }) {
  const Icon = ICONS[type] ?? IconAlertTriangle;
  const color = type === "passcode_failures" || type === "expired" ? "orange" : "blue";
  return (
    <ThemeIcon size={22} radius="xl" color={color} variant="light">
      <Icon size={14} />
    </ThemeIcon>
  );
}

/** The project's 'Delivery activity': newest first, a page at a time, refreshed live. */
export function DeliveryActivityCard({ project }: { project: Project }) {
  const [shown, setShown] = useState(PAGE);
  const { result, query } = useList<DeliveryActivity>({
    resource: `projects/${project.id}/activity`,
    pagination: { currentPage: 1, pageSize: shown },
    liveMode: "off",
    errorNotification: false,
  });
  useProjectChanges(project.id, () => void query.refetch());
  const entries = result.data ?? [];
  const total = result.total ?? 0;

  return (
    <Card withBorder shadow="xs" radius="md" p="lg" mt="md" aria-label={t("sending.deliveryActivity")}>
      <Title order={4} mb="md">
        {t("sending.deliveryActivity")}
      </Title>
      <ReminderSetting projectId={project.id} hasExpiry={project.delivery.expiresAt !== null} />
      <Divider my="md" />
      {query.isLoading ? (
        <Center h={60}>
          <Loader size="sm" />
        </Center>
      ) : query.isError ? (
        <Text size="sm" color="red">
          {t("sending.couldNotLoadTheDeliveryActivity")}
        </Text>
      ) : entries.length === 0 ? (
        <Text size="sm" color="dimmed">
          {t("sending.nothingYetMailsSentPageViews")}
        </Text>
      ) : (
        <Stack spacing="sm">
          <Timeline bulletSize={22} lineWidth={2} aria-label={t("sending.deliveryActivityEntries")}>
            {entries.map((entry) => {
              const { title, detail } = describeActivity(entry);
              return (
                <Timeline.Item key={entry.id} bullet={<ActivityItemBullet type={entry.type} />} title={title}>
                  {detail && (
                    <Text size="sm" color="dimmed" sx={{ overflowWrap: "anywhere" }}>
                      {detail}
                    </Text>
                  )}
                  <Text size="xs" color="dimmed">
                    {formatDateTime(entry.at)}
                  </Text>
                </Timeline.Item>
              );
            })}
          </Timeline>
          {total > entries.length && (
            <Button variant="subtle" size="xs" onClick={() => setShown((n) => n + PAGE)} loading={query.isFetching}>
              {t("sending.showOlder", { value: total - entries.length })}
            </Button>
          )}
        </Stack>
      )}
    </Card>
  );
}
