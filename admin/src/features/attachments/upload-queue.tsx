import { memo, useMemo } from "react";
import { ActionIcon, Badge, Button, Card, Group, Progress, Stack, Text, Tooltip } from "@mantine/core";
import { IconRefresh, IconX } from "@tabler/icons-react";
import { formatMegabytes } from "../../lib/format";
import type { UploadItem, UploadStatus, useUploadQueue } from "./use-upload-queue";
import { t } from "../../i18n";

const STATUS_COLOR: Record<UploadStatus, string> = {
  pending: "gray",
  uploading: "blue",
  completed: "green",
  error: "red",
};

const STATUS_LABEL: Record<UploadStatus, string> = {
  pending: "attachments.statusPending",
  uploading: "attachments.statusUploading",
  completed: "attachments.statusCompleted",
  error: "attachments.statusError",
};

// A drop of thousands of files draws only these many waiting and failed rows; the rest are counted.
const WAITING_SHOWN = 5;
const FAILED_SHOWN = 50;

type Queue = ReturnType<typeof useUploadQueue>;

interface RowActions {
  onRetry: (id: string) => void;
  onRemove: (id: string) => void;
}

const UploadRow = memo(function UploadRow({ item, onRetry, onRemove }: { item: UploadItem } & RowActions) {
  const completed = item.status === "completed";
  const failed = item.status === "error";
  return (
    <Card
      withBorder
      p="sm"
      radius="sm"
      // A finished row steps back by its ground, not by fading: faded grey text fails contrast.
      sx={(theme) => (completed ? { backgroundColor: theme.colors.gray[0] } : {})}
      aria-label={t("attachments.upload", { name: item.file.name })}
    >
      <Group position="apart" noWrap>
        <div style={{ minWidth: 0, flex: 1 }}>
          <Text size="sm" weight={600} truncate>
            {item.file.name}
          </Text>
          <Text size="xs" color="dimmed">
            {item.file.type || t("attachments.unknownType")} · {formatMegabytes(item.file.size)}
          </Text>
        </div>
        <Badge color={STATUS_COLOR[item.status]} variant="light">
          {t(STATUS_LABEL[item.status])}
        </Badge>
        {failed && item.retryable !== false && (
          <Tooltip label={t("attachments.retry")}>
            <ActionIcon aria-label={t("attachments.retry2", { name: item.file.name })} onClick={() => onRetry(item.id)}>
              <IconRefresh size={16} />
            </ActionIcon>
          </Tooltip>
        )}
        <Tooltip label={t("attachments.remove")}>
          <ActionIcon aria-label={t("attachments.remove2", { name: item.file.name })} onClick={() => onRemove(item.id)}>
            <IconX size={16} />
          </ActionIcon>
        </Tooltip>
      </Group>
      <Progress
        mt="xs"
        size="sm"
        value={item.progress}
        color={STATUS_COLOR[item.status]}
        aria-label={`${item.file.name} progress`}
      />
      {completed && (
        <Text size="xs" color="dimmed" mt={4}>
          {t("attachments.uploadComplete")}
        </Text>
      )}
      {failed && item.error && (
        <Text size="xs" color="red" mt={4}>
          {item.error}
        </Text>
      )}
    </Card>
  );
});

/** The rows worth drawing: every upload under way or just done, the first failures and the next few waiting. */
function shownRows(items: readonly UploadItem[]) {
  const shown: UploadItem[] = [];
  let waiting = 0;
  let failed = 0;
  for (const item of items) {
    if (item.status === "pending" && waiting++ >= WAITING_SHOWN) continue;
    if (item.status === "error" && failed++ >= FAILED_SHOWN) continue;
    shown.push(item);
  }
  return {
    shown,
    waitingHidden: Math.max(0, waiting - WAITING_SHOWN),
    failedHidden: Math.max(0, failed - FAILED_SHOWN),
  };
}

/**
 * The 'Uploading files...' list under the drop zone, with a count of what is waiting; once
 * nothing is left to send, only the files that were not uploaded and why.
 */
export function UploadQueue({ queue }: { queue: Queue }) {
  const { items, counts } = queue;
  const { shown, waitingHidden, failedHidden } = useMemo(() => shownRows(items), [items]);
  if (items.length === 0) return null;
  const sending = counts.pending + counts.uploading + counts.completed > 0;
  return (
    <Stack spacing="xs">
      <Group position="apart">
        <Text weight={600} size="sm">
          {sending ? t("attachments.uploadingFiles") : t("attachments.filesNotUploaded")}
        </Text>
        <Text size="xs" color="dimmed" aria-live="polite">
          {sending && t("attachments.uploadingWaiting", { uploading: counts.uploading, pending: counts.pending })}
          {sending && counts.error > 0 && " · "}
          {counts.error > 0 && t("attachments.notUploaded", { error: counts.error })}
        </Text>
      </Group>
      {shown.map((item) => (
        <UploadRow key={item.id} item={item} onRetry={queue.retry} onRemove={queue.remove} />
      ))}
      {waitingHidden > 0 && (
        <Text size="sm" color="dimmed">
          {t("attachments.andMoreWaiting", { waitingHidden })}
        </Text>
      )}
      {failedHidden > 0 && (
        <Text size="sm" color="dimmed">
          {t("attachments.andMoreNotUploaded", { failedHidden })}
        </Text>
      )}
      {counts.error > 1 && (
        <Group position="right">
          <Button size="xs" variant="subtle" onClick={queue.clearFailed}>
            {t("attachments.removeAllFailed")}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
