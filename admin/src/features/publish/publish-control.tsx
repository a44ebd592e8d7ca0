import { Button, Group, Progress, Stack, Text } from "@mantine/core";
import { IconDownload, IconRocket, IconRocketOff } from "@tabler/icons-react";
import type { Project } from "../../../../api/types";
import { canPublish, isPublished } from "../../lib/project-status";
import { CopyLinkButton } from "./copy-link-button";
import { DeliveryLinkButtons } from "../delivery";
import type { PublishProgress } from "./use-publish-progress";
import { usePublishActions } from "./use-publish-actions";

interface PublishControlProps {
  project: Project;
  live: PublishProgress & { reset: (change: Partial<PublishProgress>) => void };
  /** Only Publish / Unpublish (a phone: the links are in the header's menu). */
  primaryOnly?: boolean;
}

/** Publish / Unpublish, the ZIP link, live build progress and its errors. */
export function PublishControl({ project, live, primaryOnly = false }: PublishControlProps) {
  const { publish, unpublish, failure, publishPending, unpublishPending } = usePublishActions({ inline: true });
  const publishing = project.publishStatus === "publishing" || live.active || publishPending;
  const published = isPublished(project);
  const storedError = project.publishStatus === "failed" ? project.publishError || "Failed" : null;
  const error = failure ?? live.error ?? (publishing ? null : storedError);

  return (
    <Stack spacing={6} align="flex-end">
      <Group spacing="xs">
        {published ? (
          <Button
            color="orange"
            variant="light"
            leftIcon={<IconRocketOff size={16} />}
            loading={unpublishPending}
            onClick={() => unpublish(project.id)}
          >
            Unpublish Project
          </Button>
        ) : (
          <Button
            leftIcon={<IconRocket size={16} />}
            loading={publishing}
            disabled={!publishing && !canPublish(project)}
            onClick={() => {
              live.reset({ error: null, progress: 0 });
              publish(project);
            }}
          >
            Publish Project
          </Button>
        )}
        {!primaryOnly && published && project.downloadUrl && (
          <>
            <Button
              component="a"
              href={project.downloadUrl}
              target="_blank"
              rel="noopener"
              variant="default"
              leftIcon={<IconDownload size={16} />}
            >
              Download ZIP
            </Button>
            <CopyLinkButton path={project.downloadUrl} />
            {project.deliveryUrl && <DeliveryLinkButtons deliveryUrl={project.deliveryUrl} />}
          </>
        )}
      </Group>
      {publishing && (
        <Stack spacing={2} style={{ width: 260, maxWidth: "100%" }}>
          <Text size="xs" color="dimmed">
            Publishing... {live.progress}%
          </Text>
          <Progress value={live.progress} label={`${live.progress}%`} size="lg" animate aria-label="Publish progress" />
        </Stack>
      )}
      {error && (
        <Text size="sm" color="red">
          {error}
        </Text>
      )}
      {live.connectionError && (
        <Text size="xs" color="red">
          {live.connectionError}
        </Text>
      )}
    </Stack>
  );
}
