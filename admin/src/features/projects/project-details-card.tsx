import type { ReactNode } from "react";
import { Anchor, Card, Group, Stack, Text, Title } from "@mantine/core";
import { Link } from "react-router";
import { formatDate, formatDateTime, formatFileSize } from "../../lib/format";
import { isPublished, type Project } from "./types";
import { t } from "../../i18n";

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group spacing="xs" align="flex-start" noWrap>
      <Text size="sm" color="dimmed" weight={600} style={{ width: 120, flexShrink: 0 }}>
        {label}
      </Text>
      <Text size="sm" component="div" style={{ minWidth: 0, whiteSpace: "pre-wrap" }}>
        {children}
      </Text>
    </Group>
  );
}

export function ProjectDetailsCard({ project }: { project: Project }) {
  const published = isPublished(project) && project.publishedAt;
  return (
    <Card withBorder shadow="xs" radius="md" p="lg">
      <Title order={4} mb="md">
        {t("projects.projectDetails")}
      </Title>
      <Stack spacing="xs">
        <Detail label={t("projects.id")}>{project.id}</Detail>
        <Detail label={t("projects.status")}>
          {published
            ? t("projects.publishedOn", { publishedAt: formatDate(project.publishedAt) })
            : t("projects.draft")}
        </Detail>
        {project.description && <Detail label={t("projects.description")}>{project.description}</Detail>}
        {project.client && (
          <Detail label={t("projects.client")}>
            <Anchor component={Link} to={`/clients/${project.client.id}`}>
              {project.client.name}
            </Anchor>
          </Detail>
        )}
        <Detail label={t("projects.created")}>{formatDateTime(project.createdAt)}</Detail>
        <Detail label={t("projects.updated")}>{formatDateTime(project.updatedAt)}</Detail>
        {project.attachmentCount > 0 && (
          <Detail label={t("projects.totalFileSize")}>{formatFileSize(project.totalFileSize)}</Detail>
        )}
      </Stack>
    </Card>
  );
}
