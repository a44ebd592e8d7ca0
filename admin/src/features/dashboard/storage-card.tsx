import { Card, Group, Progress, Skeleton, Text, Title } from "@mantine/core";
import { formatStorage, storageColor } from "../../lib/format";
import type { DashboardStats } from "./types";

export function StorageCard({ usage, loading }: { usage?: DashboardStats["diskUsage"]; loading: boolean }) {
  const percentUsed = Math.min(100, Math.max(0, usage?.percentage ?? 0));
  return (
    <Card withBorder shadow="xs" p="lg" radius="md" h="100%">
      <Title order={4}>Storage Usage</Title>
      {loading || !usage ? (
        <Skeleton height={60} mt="md" />
      ) : (
        <>
          <Group position="apart" mt="md" mb={6}>
            <Text size="sm">
              {formatStorage(usage.used)} used of {formatStorage(usage.total)}
            </Text>
          </Group>
          <Progress
            value={percentUsed}
            color={storageColor(percentUsed)}
            size="lg"
            radius="xl"
            aria-label="Storage used"
          />
          <Group position="apart" mt={6}>
            <Text size="xs" color="dimmed">
              {percentUsed.toFixed(1)}% used
            </Text>
            <Text size="xs" color="dimmed">
              {(100 - percentUsed).toFixed(1)}% available
            </Text>
          </Group>
        </>
      )}
    </Card>
  );
}
