import { ActionIcon, Menu } from "@mantine/core";
import { IconCopy, IconDots, IconDownload, IconExternalLink, IconLink, IconPencil } from "@tabler/icons-react";
import type { Project } from "../../../../api/types";
import { useNotification } from "@refinedev/core";
import { absoluteUrl, copyText } from "../../lib/copy-text";
import { isPublished } from "../../lib/project-status";
import { useClientLink } from "../delivery";

/**
 * A phone's project header: everything but Publish / Unpublish in one menu (six buttons would
 * stack into four rows). The same actions as the wide header's buttons.
 */
export function ProjectActionsMenu({ project, onEdit }: { project: Project; onEdit: () => void }) {
  const { downloadUrl, deliveryUrl } = project;
  const published = isPublished(project);
  const { open } = useNotification();
  const clientLink = useClientLink();
  const copy = (link: string, what: string) =>
    copyText(link).then(
      () => open?.({ type: "success", message: `${what} copied` }),
      () => open?.({ type: "error", message: `Could not copy the ${what.toLowerCase()}` }),
    );
  return (
    <Menu position="bottom-end" withinPortal shadow="md">
      <Menu.Target>
        <ActionIcon variant="default" size={36} aria-label="Project actions">
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item icon={<IconPencil size={16} />} onClick={onEdit}>
          Edit Project
        </Menu.Item>
        {published && downloadUrl && (
          <>
            <Menu.Item
              icon={<IconDownload size={16} />}
              component="a"
              href={downloadUrl}
              target="_blank"
              rel="noopener"
            >
              Download ZIP
            </Menu.Item>
            <Menu.Item icon={<IconCopy size={16} />} onClick={() => copy(absoluteUrl(downloadUrl), "Download link")}>
              Copy link
            </Menu.Item>
          </>
        )}
        {published && deliveryUrl && (
          <>
            <Menu.Item icon={<IconLink size={16} />} onClick={() => copy(clientLink(deliveryUrl), "Page link")}>
              Copy page link
            </Menu.Item>
            <Menu.Item
              icon={<IconExternalLink size={16} />}
              component="a"
              href={clientLink(deliveryUrl)}
              target="_blank"
              rel="noopener"
            >
              Open delivery page
            </Menu.Item>
          </>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
