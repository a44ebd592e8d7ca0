import { ActionIcon, Badge, Checkbox, Group, Image, Menu, Paper, Text, UnstyledButton } from "@mantine/core";
import { IconDots, IconDownload, IconEye, IconPencil, IconPhoto, IconTrash } from "@tabler/icons-react";
import { formatDateTime, formatFileSize } from "../../lib/format";
import type { Attachment } from "../../../../api/types";
import { t } from "../../i18n";

interface AttachmentRowProps {
  attachment: Attachment;
  locked: boolean;
  selecting: boolean;
  selected: boolean;
  onToggle: () => void;
  /** Opens the photo in the lightbox. */
  onView: () => void;
  onRename: () => void;
  onDelete: () => void;
  /** The photo across the top of the delivery page. */
  cover?: boolean;
}

export function AttachmentRow({
  attachment,
  locked,
  selecting,
  selected,
  onToggle,
  onView,
  onRename,
  onDelete,
  cover = false,
}: AttachmentRowProps) {
  return (
    <Paper withBorder p="xs" radius="sm" aria-label={attachment.originalName}>
      <Group noWrap>
        {selecting && (
          <Checkbox
            checked={selected}
            onChange={onToggle}
            aria-label={t("attachments.select", { originalName: attachment.originalName })}
          />
        )}
        <UnstyledButton onClick={onView} aria-label={t("attachments.view", { originalName: attachment.originalName })}>
          <Image
            src={attachment.thumbnailUrl}
            alt=""
            width={56}
            height={56}
            fit="cover"
            radius="sm"
            withPlaceholder
            placeholder={<IconPhoto size={20} />}
          />
        </UnstyledButton>
        <div style={{ flex: 1, minWidth: 0 }}>
          <Group spacing={6} noWrap>
            <Text size="sm" weight={600} truncate>
              {attachment.originalName}
            </Text>
            {cover && (
              <Badge size="sm" color="dark" variant="filled">
                {t("attachments.cover")}
              </Badge>
            )}
          </Group>
          <Text size="xs" color="dimmed">
            {attachment.mimeType} · {formatFileSize(attachment.size)} · {formatDateTime(attachment.createdAt)}
          </Text>
        </div>
        <Menu position="bottom-end" withinPortal shadow="md">
          <Menu.Target>
            <ActionIcon aria-label={t("attachments.actionsFor", { originalName: attachment.originalName })}>
              <IconDots size={18} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item icon={<IconEye size={16} />} onClick={onView}>
              {t("attachments.view2")}
            </Menu.Item>
            <Menu.Item icon={<IconDownload size={16} />} component="a" href={attachment.downloadUrl}>
              {t("attachments.download")}
            </Menu.Item>
            <Menu.Item icon={<IconPencil size={16} />} onClick={onRename} disabled={locked}>
              {t("attachments.rename")}
            </Menu.Item>
            <Menu.Item icon={<IconTrash size={16} />} color="red" onClick={onDelete} disabled={locked}>
              {t("attachments.delete")}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Group>
    </Paper>
  );
}
