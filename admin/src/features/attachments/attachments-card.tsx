import { useMemo, useState } from "react";
import { Alert, Button, Card, Group, Stack, Text, Title } from "@mantine/core";
import { IconLock } from "@tabler/icons-react";
import { ImageDropZone } from "./image-drop-zone";
import { ConfirmDeleteDialog } from "../../ui/confirm-delete-dialog";
import type { Attachment } from "../../../../api/types";
import { UploadQueue } from "./upload-queue";
import { useUploadQueue } from "./use-upload-queue";
import { AttachmentRow } from "./attachment-row";
import { RenameDialog } from "./rename-dialog";
import { useAttachmentDeletion } from "./use-attachment-deletion";

interface AttachmentsCardProps {
  projectId: number;
  /** The project's own list (GET /api/projects/{id} embeds it; the project refreshes live). */
  attachments: Attachment[];
  /** Published (or publishing) projects take no new, renamed or removed attachments. */
  locked: boolean;
  published: boolean;
}

type PendingDeletion = { ids: number[]; bulk: boolean } | null;

export function AttachmentsCard({ projectId, attachments, locked, published }: AttachmentsCardProps) {
  const uploads = useUploadQueue(projectId);
  const [selectingChosen, setSelecting] = useState(false);
  const [chosen, setSelected] = useState<Set<number>>(new Set());
  const [renaming, setRenaming] = useState<Attachment | null>(null);
  const [deletion, setDeletion] = useState<PendingDeletion>(null);
  const { deleteAttachment, deleteAttachments, pending } = useAttachmentDeletion();

  const canSelect = attachments.length > 0 && !locked;
  const selecting = selectingChosen && canSelect;
  // Only attachments still there count as selected (others may have been deleted elsewhere).
  const selected = useMemo(
    () => new Set(attachments.filter((a) => chosen.has(a.id)).map((a) => a.id)),
    [attachments, chosen],
  );

  const toggleSelecting = () => {
    setSelecting(!selecting);
    setSelected(new Set());
  };
  const toggle = (id: number) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  };

  const confirmDeletion = () => {
    if (!deletion || locked) return setDeletion(null);
    const done = () => {
      setDeletion(null);
      if (deletion.bulk) setSelecting(false);
      setSelected(new Set());
    };
    if (deletion.bulk) deleteAttachments(deletion.ids, done);
    else deleteAttachment(deletion.ids[0], done);
  };

  const count = deletion?.ids.length ?? 0;
  return (
    <Card withBorder shadow="xs" radius="md" p="lg">
      <Group position="apart" mb="md">
        <Title order={4}>Attachments ({attachments.length})</Title>
        {canSelect && (
          <Button variant="default" size="xs" onClick={toggleSelecting}>
            {selecting ? "Cancel" : "Select"}
          </Button>
        )}
      </Group>
      <Stack spacing="md">
        {published && (
          <Alert color="blue" icon={<IconLock size={18} />}>
            This project is published. Unpublish it to add, remove, or modify attachments.
          </Alert>
        )}
        <ImageDropZone disabled={locked} onFiles={uploads.add} />
        <UploadQueue items={uploads.items} onRetry={uploads.retry} onRemove={uploads.remove} />
        {selecting && (
          <Group position="apart">
            <Text size="sm">
              {selected.size} of {attachments.length} selected
            </Text>
            <Group spacing="xs">
              <Button size="xs" variant="light" onClick={() => setSelected(new Set(attachments.map((a) => a.id)))}>
                Select All
              </Button>
              <Button size="xs" variant="light" onClick={() => setSelected(new Set())}>
                Deselect All
              </Button>
              <Button
                size="xs"
                color="red"
                disabled={selected.size === 0}
                onClick={() => setDeletion({ ids: [...selected], bulk: true })}
              >
                Delete Selected ({selected.size})
              </Button>
            </Group>
          </Group>
        )}
        {attachments.length === 0 ? (
          <Text color="dimmed" align="center" py="md">
            No attachments found for this project.
          </Text>
        ) : (
          <Stack spacing="xs">
            {attachments.map((attachment) => (
              <AttachmentRow
                key={attachment.id}
                attachment={attachment}
                locked={locked}
                selecting={selecting}
                selected={selected.has(attachment.id)}
                onToggle={() => toggle(attachment.id)}
                onRename={() => setRenaming(attachment)}
                onDelete={() => setDeletion({ ids: [attachment.id], bulk: false })}
              />
            ))}
          </Stack>
        )}
      </Stack>
      <RenameDialog attachment={renaming} onClose={() => setRenaming(null)} />
      <ConfirmDeleteDialog
        opened={deletion !== null}
        title={deletion?.bulk ? "Delete Selected Attachments" : "Delete Attachment"}
        message={
          deletion?.bulk
            ? `Are you sure you want to delete ${count} selected attachment(s)? This action cannot be undone.`
            : "Are you sure you want to delete this attachment? This action cannot be undone."
        }
        loading={pending}
        onConfirm={confirmDeletion}
        onCancel={() => setDeletion(null)}
      />
    </Card>
  );
}
