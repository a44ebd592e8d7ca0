import { Group, Stack, Text } from "@mantine/core";
import { Dropzone, MIME_TYPES, type FileWithPath } from "@mantine/dropzone";
import { IconLock, IconPhoto, IconUpload, IconX } from "@tabler/icons-react";

const ACCEPTED_TYPES = [MIME_TYPES.jpeg, MIME_TYPES.png, MIME_TYPES.gif, MIME_TYPES.webp];

interface ImageDropZoneProps {
  disabled: boolean;
  onFiles: (files: FileWithPath[]) => void;
}

/** Where images are dropped or picked; disabled while the project is published. */
export function ImageDropZone({ disabled, onFiles }: ImageDropZoneProps) {
  return (
    <Dropzone
      data-testid="attachment-drop-zone"
      accept={ACCEPTED_TYPES}
      disabled={disabled}
      useFsAccessApi={false}
      onDrop={(files) => {
        if (!disabled) onFiles(files);
      }}
      onReject={(rejections) =>
        console.warn(
          "Files refused (only JPEG, PNG, GIF and WebP):",
          rejections.map((r) => r.file.name),
        )
      }
      sx={disabled ? { cursor: "not-allowed", opacity: 0.6 } : undefined}
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
            {disabled ? "Cannot upload files to published project" : "Drag images here or click to select files"}
          </Text>
          <Text size="sm" color="dimmed" inline mt={7}>
            {disabled
              ? "Unpublish the project to add or remove attachments"
              : "Attach images for this project. Each file should not exceed 10MB."}
          </Text>
        </Stack>
      </Group>
    </Dropzone>
  );
}
