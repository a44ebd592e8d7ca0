import { Alert, Grid, Stack, Title } from "@mantine/core";
import { useOne } from "@refinedev/core";
import { IconAlertCircle, IconFolders, IconPhoto, IconUsers } from "@tabler/icons-react";
import { formatCount } from "../../lib/format";
import { QuickStatsCard } from "./quick-stats-card";
import { StatCard } from "./stat-card";
import { StorageCard } from "./storage-card";
import type { DashboardStats } from "./types";
import { t } from "../../i18n";

const statCards = [
  { title: "dashboard.totalClients", count: "clientCount", icon: <IconUsers size={22} />, color: "blue" },
  { title: "dashboard.activeProjects", count: "projectCount", icon: <IconFolders size={22} />, color: "teal" },
  { title: "dashboard.totalPhotos", count: "attachmentCount", icon: <IconPhoto size={22} />, color: "violet" },
] as const;

export function DashboardPage() {
  // GET /api/dashboard/stats as one record, so the server's `dashboard` announcements refresh it live.
  const { query, result: stats } = useOne<DashboardStats & { id: string }>({
    resource: "dashboard",
    id: "stats",
    errorNotification: false,
  });
  const loading = query.isLoading;

  return (
    <Stack spacing="md">
      <Title order={1} size="h2">
        {t("dashboard.dashboardOverview")}
      </Title>
      {query.isError ? (
        <Alert color="red" title={t("dashboard.errorLoadingDashboard")} icon={<IconAlertCircle size={18} />}>
          {t("dashboard.failedToLoadDashboardStatisticsPlease")}
        </Alert>
      ) : (
        <Grid>
          {statCards.map((card) => (
            <Grid.Col sm={6} lg={4} key={card.title}>
              <StatCard
                title={t(card.title)}
                value={formatCount(stats?.[card.count] ?? 0)}
                icon={card.icon}
                color={card.color}
                loading={loading}
              />
            </Grid.Col>
          ))}
          <Grid.Col md={6}>
            <StorageCard stats={stats} loading={loading} />
          </Grid.Col>
          <Grid.Col md={6}>
            <QuickStatsCard stats={stats} loading={loading} />
          </Grid.Col>
        </Grid>
      )}
    </Stack>
  );
}
