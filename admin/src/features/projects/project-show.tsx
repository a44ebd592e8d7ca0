import { useEffect } from "react";
import { Anchor, Button, Center, Grid, Group, Loader, Stack, Text, Title } from "@mantine/core";
import { IconPencil } from "@tabler/icons-react";
import { LoadError } from "../../ui/load-error";
import { Link, useParams } from "react-router";
import { AttachmentsCard, usePhotoPages } from "../attachments";
import { ProjectDetailsCard } from "./project-details-card";
import { DeliveryCard } from "../delivery";
import { FavouritesWithPhotos } from "../favourites";
import { DeliveryActivityCard, SendToClientButton } from "../sending";
import { useProjectFormModal } from "./project-form-modal";
import { isPublished } from "./types";
import { useProjectRecord } from "./use-project-record";
import { ProjectActionsMenu, PublishControl, usePublishProgress } from "../publish";
import { usePhone } from "../../lib/use-phone";
import { parseRouteId } from "../../lib/route-id";
import { t } from "../../i18n";

export function ProjectShow() {
  const projectId = parseRouteId(useParams().id) ?? undefined;
  // One page per project: its live channel is opened for the page's life.
  return <ProjectPage key={projectId ?? "none"} projectId={projectId} />;
}

function ProjectPage({ projectId }: { projectId: number | undefined }) {
  const record = useProjectRecord(projectId);
  const { project } = record;
  // Asked for beside the record, not once it has arrived.
  const photos = usePhotoPages(projectId);
  const live = usePublishProgress(projectId, record.refetch, project?.publishStatus);
  const forms = useProjectFormModal();
  const phone = usePhone();
  const { reset } = live;
  const status = project?.publishStatus;
  const updatedAt = project?.updatedAt;
  useEffect(() => {
    // A build cancelled by an unpublish (here or elsewhere) sends no publish event of its own.
    if (status && status !== "publishing") reset({ active: false });
  }, [status, updatedAt, reset]);

  if (projectId === undefined || record.failed || record.notFound) {
    return (
      <LoadError
        title={t("projects.errorLoadingProject")}
        message={t("projects.projectNotFoundOrFailedTo")}
        back={{ to: "/projects/all", label: t("projects.backToAll") }}
      />
    );
  }
  if (record.loading || !project) {
    return (
      <Center h={200}>
        <Stack align="center" spacing="xs">
          <Loader />
          <Text color="dimmed">{t("projects.loadingProject")}</Text>
        </Stack>
      </Center>
    );
  }

  const locked = project.publishStatus === "published" || project.publishStatus === "publishing";
  const edit = () => forms.showEdit(project);
  return (
    <Stack spacing="md">
      <Group position="apart" align="flex-start">
        <Title order={1} size="h2" sx={{ overflowWrap: "anywhere" }}>
          <Anchor component={Link} to={`/projects/${project.id}`} inherit>
            {project.name}
          </Anchor>
        </Title>
        <Group spacing="xs" align="flex-start" noWrap={phone}>
          {!phone && (
            <Button variant="default" leftIcon={<IconPencil size={16} />} onClick={edit}>
              {t("projects.editProject")}
            </Button>
          )}
          {!phone && <SendToClientButton project={project} />}
          <PublishControl project={project} live={live} primaryOnly={phone} />
          {phone && <ProjectActionsMenu project={project} onEdit={edit} />}
        </Group>
      </Group>
      {phone && <SendToClientButton project={project} fullWidth />}
      {/* On a phone the photos come first, the details and delivery after them. */}
      <Grid>
        <Grid.Col md={4} order={2} orderMd={1}>
          <ProjectDetailsCard project={project} />
          <DeliveryCard project={project} />
          <DeliveryActivityCard project={project} />
        </Grid.Col>
        <Grid.Col md={8} order={1} orderMd={2}>
          <FavouritesWithPhotos project={project}>
            <AttachmentsCard
              projectId={project.id}
              photos={photos}
              attachmentCount={project.attachmentCount}
              locked={locked}
              published={isPublished(project)}
              coverId={project.coverAttachmentId}
            />
          </FavouritesWithPhotos>
        </Grid.Col>
      </Grid>
      {forms.modals}
    </Stack>
  );
}
