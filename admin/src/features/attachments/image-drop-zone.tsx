import { Group, Stack, Text } from "@mantine/core";
import { Dropzone } from "@mantine/dropzone";
import { IconLock, IconPhoto, IconUpload, IconX } from "@tabler/icons-react";
import { useMediaQuery } from "@mantine/hooks";
import { ACCEPTED_FILES } from "./file-checks";
import { t } from "../../i18n";

/** A touch screen as the main pointer: nothing there is dragged, photos are tapped for. */
const TOUCH_QUERY = "(pointer: coarse)";

interface ImageDropZoneProps {
  disabled: boolean;
  /** Every file dropped or picked, those the picker's filter refused too: the queue says why. */
  onFiles: (files: File[]) => void;
}

/** Where images are dropped or picked; disabled while the project is published. */
export function ImageDropZone({ disabled, onFiles }: ImageDropZoneProps) {
  const touch = useMediaQuery(TOUCH_QUERY, false, { getInitialValueInEffect: false });
  const invitation = touch ? t("attachments.tapToChoose") : t("attachments.dragOrClick");
  return (
    <Dropzone
      data-testid="attachment-drop-zone"
      accept={ACCEPTED_FILES}
      disabled={disabled}
      useFsAccessApi={false}
      onDrop={() => {}}
      onDropAny={(accepted, rejected) => {
        if (!disabled) onFiles([...accepted, ...rejected.map((r) => r.file)]);
      }}
      // Shown as closed by its lock, grey ground and solid border, not by fading: faded text fails contrast.
      sx={
        disabled
          ? (theme) => ({ cursor: "not-allowed", backgroundColor: theme.colors.gray[1], borderStyle: "solid" })
          : undefined
      }
    >
      <Group position="center" spacing="xl" style={{ minHeight: 110, pointerEvents: "none" }}>
        {disabled ? (
          <IconLock size={40} stroke={1.5} />
        ) : (
          <>
            <Dropzone.Accept>
              <IconUpload size={40} stroke={1.5} />
            </Dropzone.Accept>
            <Dropzone.Reject>
              <IconX size={40} stroke={1.5} />
            </Dropzone.Reject>
            <Dropzone.Idle>
              <IconPhoto size={40} stroke={1.5} />
            </Dropzone.Idle>
          </>
        )}
        <Stack spacing={4}>
          <Text size="lg" inline>
            {disabled ? t("attachments.cannotUploadFilesToPublishedProject") : invitation}
          </Text>
          <Text size="sm" color="dimmed" inline mt={7}>
            {disabled ? t("attachments.unpublishTheProjectToAddOr") : t("attachments.attachImagesForThisProjectEach")}
          </Text>
        </Stack>
      </Group>
    </Dropzone>
  );
}
