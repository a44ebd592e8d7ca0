import { Alert, Grid, Stack, Title } from "@mantine/core";
import { useCustom } from "@refinedev/core";
import { IconAlertCircle, IconFolders, IconPhoto, IconUsers } from "@tabler/icons-react";
import { formatCount } from "../../lib/format";
import { QuickStatsCard } from "./quick-stats-card";
import { StatCard } from "./stat-card";
import { StorageCard } from "./storage-card";
import type { DashboardStats } from "./types";

export function DashboardPage() {
  const { query, result } = useCustom<DashboardStats>({
    url: "/dashboard/stats",
    method: "get",
    errorNotification: false,
  });
  const stats = result.data as DashboardStats | undefined;
  const loading = query.isLoading;

  return (
    <Stack spacing="md">
      <Title order={2}>Dashboard Overview</Title>
      {query.isError ? (
        <Alert color="red" title="Error loading dashboard" icon={<IconAlertCircle size={18} />}>
          Failed to load dashboard statistics. Please try again later.
        </Alert>
      ) : (
        <Grid>
          <Grid.Col sm={6} lg={4}>
            <StatCard
              title="Total Clients"
              value={formatCount(stats?.clientCount ?? 0)}
              icon={<IconUsers size={22} />}
              color="blue"
              loading={loading}
            />
          </Grid.Col>
          <Grid.Col sm={6} lg={4}>
            <StatCard
              title="Active Projects"
              value={formatCount(stats?.projectCount ?? 0)}
              icon={<IconFolders size={22} />}
              color="teal"
              loading={loading}
            />
          </Grid.Col>
          <Grid.Col sm={6} lg={4}>
            <StatCard
              title="Total Photos"
              value={formatCount(stats?.attachmentCount ?? 0)}
              icon={<IconPhoto size={22} />}
              color="violet"
              loading={loading}
            />
          </Grid.Col>
          <Grid.Col md={6}>
            <StorageCard usage={stats?.diskUsage} loading={loading} />
          </Grid.Col>
          <Grid.Col md={6}>
            <QuickStatsCard stats={stats} loading={loading} />
          </Grid.Col>
        </Grid>
      )}
    </Stack>
  );
}
