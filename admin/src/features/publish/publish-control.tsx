import { useState } from "react";
import { Button, Checkbox, Group, Progress, Stack, Text } from "@mantine/core";
import { IconDownload, IconRocket } from "@tabler/icons-react";
import type { Project } from "../../../../api/types";
import { canPublish, isPublished } from "../../lib/project-status";
import { CopyLinkButton } from "./copy-link-button";
import { DeliveryLinkButtons } from "../delivery";
import type { PublishProgress } from "./use-publish-progress";
import { usePublishActions } from "./use-publish-actions";
import { UnpublishButton } from "./unpublish-button";
import { useLinkRecipients } from "./use-link-recipients";
import { t } from "../../i18n";

interface PublishControlProps {
  project: Project;
  live: PublishProgress & { reset: (change: Partial<PublishProgress>) => void };
  /** Only Publish / Unpublish (a phone: the links are in the header's menu). */
  primaryOnly?: boolean;
}

// The live connection's states (live-provider.ts), in the user's words; anything else as it came.
const CONNECTION_ERRORS: Record<string, string> = {
  "Connection lost": "publish.connectionLost",
  "Connection failed": "publish.connectionFailed",
  "Authentication required": "publish.connectionSignedOut",
  "Failed to authenticate": "publish.connectionSignedOut",
};
const connectionMessage = (error: string) =>
  Object.hasOwn(CONNECTION_ERRORS, error) ? t(CONNECTION_ERRORS[error]) : error;

/** Publish / Unpublish, the ZIP link, live build progress and its errors. */
export function PublishControl({ project, live, primaryOnly = false }: PublishControlProps) {
  const { publish, unpublish, failure, publishPending, unpublishPending } = usePublishActions({ inline: true });
  const publishing = project.publishStatus === "publishing" || live.active || publishPending;
  const published = isPublished(project);
  const storedError = project.publishStatus === "failed" ? project.publishError || t("publish.failed") : null;
  const error = failure ?? live.error ?? (publishing ? null : storedError);
  const hasRecipients = useLinkRecipients(project);
  const [notifyRecipients, setNotifyRecipients] = useState(false);
  const offerNotice = hasRecipients && !publishing && canPublish(project);

  return (
    <Stack spacing={6} align="flex-end">
      <Group spacing="xs">
        {published ? (
          <UnpublishButton pending={unpublishPending} onConfirm={() => unpublish(project.id)} />
        ) : (
          <Button
            leftIcon={<IconRocket size={16} />}
            loading={publishing}
            disabled={!publishing && !canPublish(project)}
            onClick={() => {
              live.reset({ error: null, progress: 0 });
              publish(project, { notifyRecipients: offerNotice && notifyRecipients });
              setNotifyRecipients(false);
            }}
          >
            {t("publish.publishProject")}
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
              {t("publish.downloadZip")}
            </Button>
            <CopyLinkButton path={project.downloadUrl} />
          </>
        )}
        {/* A view-only gallery (no ZIP) is shared all the same. */}
        {!primaryOnly && published && project.deliveryUrl && <DeliveryLinkButtons deliveryUrl={project.deliveryUrl} />}
      </Group>
      {offerNotice && (
        <Checkbox
          size="sm"
          label={t("publish.letRecipientsKnowTheGalleryWas")}
          checked={notifyRecipients}
          onChange={(event) => setNotifyRecipients(event.currentTarget.checked)}
        />
      )}
      {publishing && (
        <Stack spacing={2} style={{ width: 260, maxWidth: "100%" }}>
          <Text size="xs" color="dimmed">
            {t("publish.publishing", { progress: live.progress })}
          </Text>
          <Progress
            value={live.progress}
            label={`${live.progress}%`}
            size="lg"
            animate
            aria-label={t("publish.publishProgress")}
          />
        </Stack>
      )}
      {error && (
        <Text size="sm" color="red">
          {error}
        </Text>
      )}
      {live.connectionError && (
        <Text size="xs" color="red">
          {connectionMessage(live.connectionError)}
        </Text>
      )}
    </Stack>
  );
}
