import { useState, type ReactNode } from "react";
import { Anchor, Badge, Button, Card, Group, ScrollArea, Stack, Table, Text, Title } from "@mantine/core";
import { useDelete } from "@refinedev/core";
import { IconPlus } from "@tabler/icons-react";
import { Link } from "react-router";
import { formatDate } from "../../lib/format";
import { usePublishActions } from "../publish";
import { ConfirmDeleteDialog } from "../../ui/confirm-delete-dialog";
import { useFailureFor } from "../../lib/failure";
import { ProjectRowMenu } from "./project-row-menu";
import { useProjectFormModal } from "./project-form-modal";
import type { Project } from "./types";

export interface ProjectsPanelProps {
  /** The rows shown: a client's embedded projects, or the projects list's current page. */
  projects: Project[];
  total: number;
  loading?: boolean;
  /** Above the table (the list's search). */
  toolbar?: ReactNode;
  /** Below the table (the list's pagination). */
  footer?: ReactNode;
  /** Only this client's projects; new projects are created for it. */
  clientId?: number;
  /** Replaces the default 'Projects (n)'. */
  title?: string;
  showClient?: boolean;
  showAttachmentCount?: boolean;
}

/** The spec's "Projects list": used on /projects/all and in a client's page. */
export function ProjectsPanel({
  projects,
  total,
  loading = false,
  toolbar,
  footer,
  clientId,
  title,
  showClient = true,
  showAttachmentCount = true,
}: ProjectsPanelProps) {
  const [deleting, setDeleting] = useState<Project | null>(null);
  const forms = useProjectFormModal(clientId);
  const { publish } = usePublishActions();
  const { mutate: deleteProject, mutation: deletion } = useDelete();
  const failure = useFailureFor(deleting);

  const confirmDelete = () => {
    if (!deleting) return;
    failure.clear();
    deleteProject(
      {
        resource: "projects",
        id: deleting.id,
        successNotification: { type: "success", message: "Project deleted" },
        errorNotification: false,
      },
      { onSuccess: () => setDeleting(null), onError: failure.show },
    );
  };

  return (
    <Card withBorder shadow="xs" radius="md" p="lg">
      <Group position="apart" mb="md">
        <Group spacing="xs">
          <Title order={3}>{title ?? `Projects (${total})`}</Title>
          {title && <Badge variant="light">{total}</Badge>}
        </Group>
        <Button leftIcon={<IconPlus size={16} />} onClick={forms.showCreate}>
          Add Project
        </Button>
      </Group>
      {toolbar}
      {loading ? (
        <Text color="dimmed">Loading projects...</Text>
      ) : projects.length === 0 ? (
        <Stack align="center" spacing={4} py="xl">
          <Text weight={600}>No projects found.</Text>
          <Text color="dimmed" size="sm">
            Add the first project to get started.
          </Text>
        </Stack>
      ) : (
        <ScrollArea type="auto" offsetScrollbars>
          <Table verticalSpacing="sm" highlightOnHover miw={560}>
            <thead>
              <tr>
                <th>Name</th>
                {showClient && <th>Client</th>}
                {showAttachmentCount && <th>Attachments</th>}
                <th>Published</th>
                <th aria-label="Actions" />
              </tr>
            </thead>
            <tbody>
              {projects.map((project) => (
                <tr key={project.id}>
                  <td>
                    <Anchor component={Link} to={`/projects/${project.id}`} weight={600}>
                      {project.name}
                    </Anchor>
                    {project.description && (
                      <Text size="sm" color="dimmed" lineClamp={2}>
                        {project.description}
                      </Text>
                    )}
                  </td>
                  {showClient && (
                    <td>
                      {project.client ? (
                        <Anchor component={Link} to={`/clients/${project.client.id}`} size="sm">
                          {project.client.name}
                        </Anchor>
                      ) : (
                        <Text size="sm" color="dimmed">
                          No client
                        </Text>
                      )}
                    </td>
                  )}
                  {showAttachmentCount && (
                    <td>
                      <Badge variant="light">{project.attachmentCount}</Badge>
                    </td>
                  )}
                  <td>
                    <Text size="sm">{project.publishedAt ? formatDate(project.publishedAt) : ""}</Text>
                  </td>
                  <td style={{ width: 48 }}>
                    <ProjectRowMenu
                      project={project}
                      onEdit={() => forms.showEdit(project)}
                      onPublish={() => publish(project)}
                      onDelete={() => setDeleting(project)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        </ScrollArea>
      )}
      {footer}
      {forms.modals}
      <ConfirmDeleteDialog
        opened={deleting !== null}
        title="Delete Project"
        message={`Are you sure you want to delete "${deleting?.name ?? ""}"? Its attachments and published ZIP are deleted too. This action cannot be undone.`}
        loading={deletion.isPending}
        error={failure.message}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      />
    </Card>
  );
}
