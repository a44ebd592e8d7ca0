import { useState, type ReactNode } from "react";
import { Badge, Button, Card, Group, Stack, Text, Title } from "@mantine/core";
import { useDelete } from "@refinedev/core";
import { IconPlus } from "@tabler/icons-react";
import { usePublishActions } from "../publish";
import { ConfirmDeleteDialog } from "../../ui/confirm-delete-dialog";
import { useFailureFor } from "../../lib/failure";
import { ProjectRows } from "./project-rows";
import { useProjectFormModal } from "./project-form-modal";
import type { Project } from "./types";
import { t } from "../../i18n";

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
        successNotification: { type: "success", message: t("projects.deleted") },
        errorNotification: false,
      },
      { onSuccess: () => setDeleting(null), onError: failure.show },
    );
  };

  return (
    <Card withBorder shadow="xs" radius="md" p="lg">
      <Group position="apart" mb="md">
        <Group spacing="xs">
          {/* The projects list's own title is its page's heading; in a client's page it is a section. */}
          <Title order={title ? 1 : 2} size="h3">
            {title ?? t("projects.projects", { total })}
          </Title>
          {title && <Badge variant="light">{total}</Badge>}
        </Group>
        <Button leftIcon={<IconPlus size={16} />} onClick={forms.showCreate}>
          {t("projects.addProject")}
        </Button>
      </Group>
      {toolbar}
      {loading ? (
        <Text color="dimmed">{t("projects.loadingProjects")}</Text>
      ) : projects.length === 0 ? (
        <Stack align="center" spacing={4} py="xl">
          <Text weight={600}>{t("projects.noProjectsFound")}</Text>
          <Text color="dimmed" size="sm">
            {t("projects.addTheFirstProjectToGet")}
          </Text>
        </Stack>
      ) : (
        <ProjectRows
          projects={projects}
          showClient={showClient}
          showAttachmentCount={showAttachmentCount}
          onEdit={forms.showEdit}
          onPublish={publish}
          onDelete={setDeleting}
        />
      )}
      {footer}
      {forms.modals}
      <ConfirmDeleteDialog
        opened={deleting !== null}
        title={t("projects.deleteProject")}
        message={t("projects.areYouSureYouWantTo", { value: deleting?.name ?? "" })}
        loading={deletion.isPending}
        error={failure.message}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      />
    </Card>
  );
}
