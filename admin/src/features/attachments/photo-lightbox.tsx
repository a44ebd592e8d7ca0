import { useRef, type PointerEvent, type SyntheticEvent } from "react";
import { useWindowEvent } from "@mantine/hooks";
import { ActionIcon, Button, Center, createStyles, Group, Loader, Modal, Text } from "@mantine/core";
import {
  IconChevronLeft,
  IconChevronRight,
  IconDownload,
  IconPencil,
  IconPhotoStar,
  IconTrash,
} from "@tabler/icons-react";
import type { Attachment } from "../../../../api/types";
import { formatFileSize } from "../../lib/format";
import type { Lightbox } from "./use-lightbox";
import { t } from "../../i18n";

const SWIPE_PX = 50;

const useStyles = createStyles((theme) => ({
  stage: {
    position: "relative",
    display: "flex",
    alignItems: "center",
    justifyContent: "center",
    height: "calc(100dvh - 190px)",
    // Horizontal swipes page through the photos; vertical ones still scroll.
    touchAction: "pan-y",
    userSelect: "none",
  },
  image: { maxWidth: "100%", maxHeight: "100%", objectFit: "contain", borderRadius: theme.radius.sm },
  previous: { position: "absolute", left: 0 },
  next: { position: "absolute", right: 0 },
}));

interface PhotoLightboxProps {
  lightbox: Lightbox;
  /** Published projects keep their photos as they are: no rename or delete. */
  locked: boolean;
  onRename: (photo: Attachment) => void;
  onDelete: (photo: Attachment) => void;
  /** The delivery page's cover, which any photo can become, published or not. */
  coverId: number | null;
  onCover: (photo: Attachment) => void;
}

/** A photo with no preview (one that cannot be rendered) is shown itself. */
function showOriginal(event: SyntheticEvent<HTMLImageElement>, photo: Attachment) {
  const image = event.currentTarget;
  if (image.dataset.original) return;
  image.dataset.original = "shown";
  image.src = photo.viewUrl;
}

const dimensions = (photo: Attachment) => (photo.width && photo.height ? ` · ${photo.width} × ${photo.height} px` : "");

/**
 * One photo at a time over the whole screen, at screen size (its preview): previous/next by
 * button, arrow keys or swipe; its facts, the original's download and 'Use as cover'.
 */
export function PhotoLightbox({ lightbox, locked, onRename, onDelete, coverId, onCover }: PhotoLightboxProps) {
  const { classes } = useStyles();
  const swipeStart = useRef<number | null>(null);
  const { photo } = lightbox;

  // On the window: the focus starts on the dialog's close button, outside the photo's own area.
  // Escape too, so the lightbox closes wherever the focus went.
  useWindowEvent("keydown", (event) => {
    if (!lightbox.opened || event.defaultPrevented) return;
    if (event.key === "ArrowRight") lightbox.next();
    else if (event.key === "ArrowLeft") lightbox.previous();
    else if (event.key === "Escape") lightbox.close();
    else return;
    event.preventDefault();
  });
  const onPointerUp = (event: PointerEvent) => {
    const start = swipeStart.current;
    swipeStart.current = null;
    if (start === null) return;
    if (event.clientX - start <= -SWIPE_PX) lightbox.next();
    else if (event.clientX - start >= SWIPE_PX) lightbox.previous();
  };
  // The actions close the lightbox first: their dialogs never open over it.
  const closeThen = (action: (photo: Attachment) => void) => () => {
    if (!photo) return;
    lightbox.close();
    action(photo);
  };

  return (
    <Modal
      opened={lightbox.opened}
      onClose={lightbox.close}
      fullScreen
      title={photo?.originalName ?? t("attachments.loadingPhoto")}
      styles={{ title: { fontWeight: 600, overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" } }}
    >
      <div>
        <Group position="apart" mb="xs" spacing="xs">
          <Text size="sm" aria-live="polite">
            {lightbox.position !== null &&
              t("attachments.photoOf", { position: lightbox.position, total: lightbox.total })}
            {photo && ` · ${formatFileSize(photo.size)}${dimensions(photo)}`}
          </Text>
          {photo && (
            <Group spacing="xs">
              <Button
                component="a"
                href={photo.downloadUrl}
                size="xs"
                variant="default"
                leftIcon={<IconDownload size={16} />}
              >
                {t("attachments.download")}
              </Button>
              {/* Looks disabled once chosen but keeps the focus (a disabled button would drop it to the page). */}
              <Button
                size="xs"
                variant="default"
                leftIcon={<IconPhotoStar size={16} />}
                data-disabled={photo.id === coverId || undefined}
                aria-disabled={photo.id === coverId}
                onClick={() => photo.id !== coverId && onCover(photo)}
              >
                {photo.id === coverId ? t("attachments.coverPhoto") : t("attachments.useAsCover")}
              </Button>
              {!locked && (
                <>
                  <Button size="xs" variant="default" leftIcon={<IconPencil size={16} />} onClick={closeThen(onRename)}>
                    {t("attachments.rename")}
                  </Button>
                  <Button
                    size="xs"
                    color="red"
                    variant="outline"
                    leftIcon={<IconTrash size={16} />}
                    onClick={closeThen(onDelete)}
                  >
                    {t("attachments.delete")}
                  </Button>
                </>
              )}
            </Group>
          )}
        </Group>
        <div
          className={classes.stage}
          onPointerDown={(event) => (swipeStart.current = event.clientX)}
          onPointerUp={onPointerUp}
          onPointerCancel={() => (swipeStart.current = null)}
        >
          {photo ? (
            <img
              key={photo.id}
              className={classes.image}
              src={photo.previewUrl}
              onError={(event) => showOriginal(event, photo)}
              alt={photo.originalName}
              draggable={false}
            />
          ) : (
            <Center>
              <Loader aria-label={t("attachments.loadingPhoto2")} />
            </Center>
          )}
          {[
            {
              label: t("attachments.previousPhoto"),
              className: classes.previous,
              can: lightbox.hasPrevious,
              go: lightbox.previous,
            },
            { label: t("attachments.nextPhoto"), className: classes.next, can: lightbox.hasNext, go: lightbox.next },
          ].map((step) => (
            <ActionIcon
              key={step.label}
              className={step.className}
              size="xl"
              variant="default"
              aria-label={step.label}
              disabled={!step.can}
              onClick={step.go}
            >
              {step.className === classes.next ? <IconChevronRight size={28} /> : <IconChevronLeft size={28} />}
            </ActionIcon>
          ))}
        </div>
      </div>
    </Modal>
  );
}
