import { ActionIcon, Badge, Card, Group, Progress, Stack, Text, Tooltip } from "@mantine/core";
import { IconRefresh, IconX } from "@tabler/icons-react";
import { formatMegabytes } from "../../lib/format";
import type { UploadItem, UploadStatus } from "./use-upload-queue";

const STATUS_COLOR: Record<UploadStatus, string> = {
  pending: "gray",
  uploading: "blue",
  completed: "green",
  error: "red",
};

interface UploadQueueProps {
  items: UploadItem[];
  onRetry: (id: string) => void;
  onRemove: (id: string) => void;
}

function UploadRow({ item, onRetry, onRemove }: { item: UploadItem } & Omit<UploadQueueProps, "items">) {
  const completed = item.status === "completed";
  return (
    <Card
      withBorder
      p="sm"
      radius="sm"
      style={{ opacity: completed ? 0.6 : 1 }}
      aria-label={`Upload ${item.file.name}`}
    >
      <Group position="apart" noWrap>
        <div style={{ minWidth: 0, flex: 1 }}>
          <Text size="sm" weight={600} truncate>
            {item.file.name}
          </Text>
          <Text size="xs" color="dimmed">
            {item.file.type || "unknown type"} · {formatMegabytes(item.file.size)}
          </Text>
        </div>
        <Badge color={STATUS_COLOR[item.status]} variant="light">
          {item.status}
        </Badge>
        {item.status === "error" && (
          <Tooltip label="Retry">
            <ActionIcon aria-label={`Retry ${item.file.name}`} onClick={() => onRetry(item.id)}>
              <IconRefresh size={16} />
            </ActionIcon>
          </Tooltip>
        )}
        <Tooltip label="Remove">
          <ActionIcon aria-label={`Remove ${item.file.name}`} onClick={() => onRemove(item.id)}>
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
          Upload complete
        </Text>
      )}
      {item.status === "error" && item.error && (
        <Text size="xs" color="red" mt={4}>
          {item.error}
        </Text>
      )}
    </Card>
  );
}

/** The 'Uploading files...' list under the drop zone. */
export function UploadQueue({ items, onRetry, onRemove }: UploadQueueProps) {
  if (items.length === 0) return null;
  return (
    <Stack spacing="xs">
      <Text weight={600} size="sm">
        Uploading files...
      </Text>
      {items.map((item) => (
        <UploadRow key={item.id} item={item} onRetry={onRetry} onRemove={onRemove} />
      ))}
    </Stack>
  );
}
