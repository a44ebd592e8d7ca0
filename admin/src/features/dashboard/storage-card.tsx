import { Card, Group, Progress, Skeleton, Stack, Text, Title } from "@mantine/core";
import { formatFileSize, formatStorage, storageColor } from "../../lib/format";
import type { DashboardStats } from "./types";
import { StatLine } from "./stat-line";
import { t } from "../../i18n";

/**
 * What Photodrop keeps (photos and published ZIPs) against the room it has (that plus the free
 * space of the volume holding the photos), and the volume's own free and total space.
 */
export function StorageCard({
  stats,
  loading,
}: {
  stats?: Pick<DashboardStats, "diskUsage" | "storage"> & Partial<Pick<DashboardStats, "location">>;
  loading: boolean;
}) {
  const usage = stats?.diskUsage;
  const percentUsed = Math.min(100, Math.max(0, usage?.percentage ?? 0));
  // Present once the server reports it (GET /api/dashboard/stats `storage`).
  const storage = stats?.storage;
  return (
    <Card withBorder shadow="xs" p="lg" radius="md" h="100%">
      <Title order={2} size="h4">
        {t("dashboard.storageUsage")}
      </Title>
      {loading || !usage ? (
        <Skeleton height={60} mt="md" />
      ) : stats?.location?.kind === "bucket" ? (
        // A bucket has no size to fill: what Photodrop keeps there, and where.
        <Stack spacing={2} mt="md" aria-label={t("dashboard.storageInDetail")}>
          <Text size="sm">{t("dashboard.inObjectStorage", { used: formatStorage(usage.used) })}</Text>
          <StatLine size="xs" label={t("dashboard.bucket")} value={stats.location.bucket} />
        </Stack>
      ) : (
        <>
          <Group position="apart" mt="md" mb={6}>
            <Text size="sm">
              {t("dashboard.usedOf", { used: formatStorage(usage.used), total: formatStorage(usage.total) })}
            </Text>
          </Group>
          <Progress
            value={percentUsed}
            color={storageColor(percentUsed)}
            size="lg"
            radius="xl"
            aria-label={t("dashboard.storageUsed")}
          />
          <Group position="apart" mt={6}>
            <Text size="xs" color="dimmed">
              {t("dashboard.used", { value: percentUsed.toFixed(1) })}
            </Text>
            <Text size="xs" color="dimmed">
              {t("dashboard.available", { value: (100 - percentUsed).toFixed(1) })}
            </Text>
          </Group>
          {storage && (
            <Stack spacing={2} mt="sm" aria-label={t("dashboard.storageInDetail")}>
              <StatLine size="xs" label={t("dashboard.photos")} value={formatFileSize(storage.photosBytes)} />
              <StatLine size="xs" label={t("dashboard.publishedZips")} value={formatFileSize(storage.zipsBytes)} />
              <StatLine
                size="xs"
                label={t("dashboard.freeOnTheDataVolume")}
                value={t("dashboard.sizeOf", {
                  size: formatFileSize(storage.freeBytes),
                  total: formatFileSize(storage.totalBytes),
                })}
              />
            </Stack>
          )}
        </>
      )}
    </Card>
  );
}
