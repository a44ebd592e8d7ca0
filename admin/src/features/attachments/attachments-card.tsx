import { useState } from "react";
import { Alert, Button, Card, Center, Group, Loader, Stack, Text, Title } from "@mantine/core";
import { IconLock } from "@tabler/icons-react";
import { useAuthConfig } from "../auth";
import { ConfirmDeleteDialog } from "../../ui/confirm-delete-dialog";
import { FailureAlert } from "../../ui/failure-alert";
import { Pager } from "../../ui/pager";
import type { Attachment } from "../../../../api/types";
import { ImageDropZone } from "./image-drop-zone";
import { UploadQueue } from "./upload-queue";
import { useUploadQueue } from "./use-upload-queue";
import { RenameDialog } from "./rename-dialog";
import type { PhotoPages } from "./use-photo-page";
import { usePhotoDeletion } from "./use-photo-deletion";
import { SelectionBar } from "./selection-bar";
import { PhotoGrid } from "./photo-grid";
import { PhotoList } from "./photo-list";
import { PhotoLightbox } from "./photo-lightbox";
import { PhotoViewSwitch, type PhotoView } from "./photo-view-switch";
import { useLightbox } from "./use-lightbox";
import { useCover } from "./use-cover";
import {
  EVERYTHING_SELECTED,
  isSelected,
  NOTHING_SELECTED,
  selectedCount,
  toggled,
  type PhotoSelection,
} from "./photo-selection";
import { t } from "../../i18n";

interface AttachmentsCardProps {
  projectId: number;
  /** The project's photos, a page at a time (usePhotoPages). */
  photos: PhotoPages;
  /** The project's own count, shown until the first page of photos has answered. */
  attachmentCount: number;
  /** Published (or publishing) projects take no new, renamed or removed attachments. */
  locked: boolean;
  published: boolean;
  /** The photo across the top of the delivery page (the chosen one, or the first). */
  coverId: number | null;
}

/** A project's photos, a page at a time, as a grid or a list, with uploads, selection, deletion and a lightbox. */
export function AttachmentsCard({
  projectId,
  photos,
  attachmentCount,
  locked,
  published,
  coverId,
}: AttachmentsCardProps) {
  const { maxUploadBytes } = useAuthConfig();
  const uploads = useUploadQueue(projectId, maxUploadBytes);
  const [view, setView] = useState<PhotoView>("grid");
  const [selectingChosen, setSelecting] = useState(false);
  const [selection, setSelection] = useState<PhotoSelection>(NOTHING_SELECTED);
  const [renaming, setRenaming] = useState<Attachment | null>(null);
  const lightbox = useLightbox(photos);
  const cover = useCover(projectId);

  const total = photos.loading ? attachmentCount : photos.total;
  const canSelect = total > 0 && !locked;
  const selecting = selectingChosen && canSelect;
  const deletion = usePhotoDeletion(projectId, total, () => {
    setSelecting(false);
    setSelection(NOTHING_SELECTED);
  });
  const shown = {
    photos: photos.photos,
    selecting,
    isSelected: (id: number) => isSelected(selection, id),
    onToggle: (id: number) => setSelection((current) => toggled(current, id)),
    onOpen: lightbox.open,
    coverId,
  };

  const toggleSelecting = () => {
    setSelecting(!selecting);
    setSelection(NOTHING_SELECTED);
  };

  return (
    <Card withBorder shadow="xs" radius="md" p="lg">
      <Group position="apart" mb="md" spacing="xs">
        <Title order={2} size="h4">
          {t("attachments.attachments", { total })}
        </Title>
        <Group spacing="xs">
          {total > 0 && <PhotoViewSwitch view={view} onChange={setView} />}
          {canSelect && (
            <Button variant="default" size="xs" onClick={toggleSelecting}>
              {selecting ? t("attachments.cancel") : t("attachments.select2")}
            </Button>
          )}
        </Group>
      </Group>
      <Stack spacing="md">
        {published && (
          <Alert color="blue" icon={<IconLock size={18} />}>
            {t("attachments.thisProjectIsPublishedUnpublishIt")}
          </Alert>
        )}
        <ImageDropZone disabled={locked} onFiles={uploads.add} />
        <UploadQueue queue={uploads} />
        {selecting && (
          <SelectionBar
            selected={selectedCount(selection, total)}
            total={total}
            onSelectAll={() => setSelection(EVERYTHING_SELECTED)}
            onDeselectAll={() => setSelection(NOTHING_SELECTED)}
            onDelete={() => deletion.askSelection(selection)}
          />
        )}
        {photos.error ? (
          <FailureAlert
            mt={0}
            message={t("attachments.thePhotosCouldNotBeLoaded", { message: photos.error.message })}
          />
        ) : photos.loading ? (
          <Center py="md">
            <Loader size="sm" aria-label={t("attachments.loadingPhotos")} />
          </Center>
        ) : total === 0 ? (
          <Text color="dimmed" align="center" py="md">
            {t("attachments.noAttachmentsFoundForThisProject")}
          </Text>
        ) : view === "grid" ? (
          <PhotoGrid {...shown} />
        ) : (
          <PhotoList
            {...shown}
            locked={locked}
            onRename={setRenaming}
            onDelete={(photo) => deletion.askOne(photo.id)}
          />
        )}
        {photos.pageCount > 1 && (
          <Group position="center">
            <Pager
              page={photos.page}
              total={photos.pageCount}
              onChange={photos.setPage}
              aria-label={t("attachments.pagesOfPhotos")}
            />
          </Group>
        )}
      </Stack>
      <PhotoLightbox
        lightbox={lightbox}
        locked={locked}
        onRename={setRenaming}
        onDelete={(photo) => deletion.askOne(photo.id)}
        coverId={coverId}
        onCover={(photo) => cover.setCover(photo.id)}
      />
      <RenameDialog attachment={renaming} onClose={() => setRenaming(null)} />
      <ConfirmDeleteDialog {...deletion.dialog} />
    </Card>
  );
}
