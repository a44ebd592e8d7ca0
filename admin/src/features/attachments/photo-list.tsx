import { Stack } from "@mantine/core";
import type { Attachment } from "../../../../api/types";
import { AttachmentRow } from "./attachment-row";

interface PhotoListProps {
  photos: Attachment[];
  locked: boolean;
  selecting: boolean;
  isSelected: (id: number) => boolean;
  onToggle: (id: number) => void;
  onOpen: (index: number) => void;
  onRename: (photo: Attachment) => void;
  onDelete: (photo: Attachment) => void;
  /** Marked 'Cover': the photo across the top of the delivery page. */
  coverId?: number | null;
}

/** The spec's list of attachment rows: name, type, size, date and a menu each. */
export function PhotoList({
  photos,
  locked,
  selecting,
  isSelected,
  onToggle,
  onOpen,
  onRename,
  onDelete,
  coverId,
}: PhotoListProps) {
  return (
    <Stack spacing="xs">
      {photos.map((photo, index) => (
        <AttachmentRow
          key={photo.id}
          attachment={photo}
          locked={locked}
          selecting={selecting}
          selected={isSelected(photo.id)}
          onToggle={() => onToggle(photo.id)}
          onView={() => onOpen(index)}
          onRename={() => onRename(photo)}
          onDelete={() => onDelete(photo)}
          cover={photo.id === coverId}
        />
      ))}
    </Stack>
  );
}
