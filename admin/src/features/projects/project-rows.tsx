import { Anchor, Badge, Group, Paper, ScrollArea, Stack, Table, Text } from "@mantine/core";
import { Link } from "react-router";
import { formatDate } from "../../lib/format";
import { usePhone } from "../../lib/use-phone";
import { ProjectRowMenu } from "./project-row-menu";
import type { Project } from "./types";
import { t } from "../../i18n";

export interface ProjectRowsProps {
  projects: Project[];
  showClient: boolean;
  showAttachmentCount: boolean;
  onEdit: (project: Project) => void;
  onPublish: (project: Project) => void;
  onDelete: (project: Project) => void;
}

function ProjectName({ project }: { project: Project }) {
  return (
    <>
      <Anchor component={Link} to={`/projects/${project.id}`} weight={600}>
        {project.name}
      </Anchor>
      {project.description && (
        <Text size="sm" color="dimmed" lineClamp={2}>
          {project.description}
        </Text>
      )}
    </>
  );
}

function ProjectClient({ project }: { project: Project }) {
  return project.client ? (
    <Anchor component={Link} to={`/clients/${project.client.id}`} size="sm">
      {project.client.name}
    </Anchor>
  ) : (
    <Text size="sm" color="dimmed">
      {t("projects.noClient")}
    </Text>
  );
}

const published = (project: Project) => (project.publishedAt ? formatDate(project.publishedAt) : "");

function Menu({
  project,
  ...handlers
}: Pick<ProjectRowsProps, "onEdit" | "onPublish" | "onDelete"> & { project: Project }) {
  return (
    <ProjectRowMenu
      project={project}
      onEdit={() => handlers.onEdit(project)}
      onPublish={() => handlers.onPublish(project)}
      onDelete={() => handlers.onDelete(project)}
    />
  );
}

/** The spec's projects table; on a phone, a card per project with its menu beside its name. */
export function ProjectRows(props: ProjectRowsProps) {
  const phone = usePhone();
  return phone ? <ProjectCards {...props} /> : <ProjectTable {...props} />;
}

function ProjectTable({ projects, showClient, showAttachmentCount, ...handlers }: ProjectRowsProps) {
  return (
    <ScrollArea type="auto" offsetScrollbars>
      <Table verticalSpacing="sm" highlightOnHover miw={560}>
        <thead>
          <tr>
            <th>{t("projects.name")}</th>
            {showClient && <th>{t("projects.client")}</th>}
            {showAttachmentCount && <th>{t("projects.attachments")}</th>}
            <th>{t("projects.published")}</th>
            <th aria-label={t("projects.actions")} />
          </tr>
        </thead>
        <tbody>
          {projects.map((project) => (
            <tr key={project.id}>
              <td>
                <ProjectName project={project} />
              </td>
              {showClient && (
                <td>
                  <ProjectClient project={project} />
                </td>
              )}
              {showAttachmentCount && (
                <td>
                  <Badge variant="light">{project.attachmentCount}</Badge>
                </td>
              )}
              <td>
                <Text size="sm">{published(project)}</Text>
              </td>
              <td style={{ width: 48 }}>
                <Menu project={project} {...handlers} />
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
    </ScrollArea>
  );
}

function ProjectCards({ projects, showClient, showAttachmentCount, ...handlers }: ProjectRowsProps) {
  return (
    <Stack role="list" spacing="sm">
      {projects.map((project) => (
        <Paper key={project.id} role="listitem" withBorder radius="md" p="sm">
          <Group position="apart" noWrap align="flex-start">
            <div style={{ minWidth: 0, overflowWrap: "anywhere" }}>
              <ProjectName project={project} />
            </div>
            <Menu project={project} {...handlers} />
          </Group>
          <Group spacing="xs" mt={6}>
            {showClient && <ProjectClient project={project} />}
            {showAttachmentCount && (
              <Badge variant="light">{t("projects.photoCount", { count: project.attachmentCount })}</Badge>
            )}
            {project.publishedAt && <Text size="sm">{t("projects.published2", { project: published(project) })}</Text>}
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}
