import { ActionIcon, Menu } from "@mantine/core";
import { IconDots, IconDownload, IconPencil, IconRocket, IconTrash } from "@tabler/icons-react";
import { canPublish, type Project } from "./types";
import { t } from "../../i18n";

interface ProjectRowMenuProps {
  project: Project;
  onEdit: () => void;
  onPublish: () => void;
  onDelete: () => void;
}

export function ProjectRowMenu({ project, onEdit, onPublish, onDelete }: ProjectRowMenuProps) {
  return (
    <Menu position="bottom-end" withinPortal shadow="md">
      <Menu.Target>
        <ActionIcon aria-label={t("projects.actionsFor", { name: project.name })}>
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item icon={<IconPencil size={16} />} onClick={onEdit}>
          {t("projects.edit")}
        </Menu.Item>
        <Menu.Item icon={<IconRocket size={16} />} onClick={onPublish} disabled={!canPublish(project)}>
          {t("projects.publishProject")}
        </Menu.Item>
        {project.downloadUrl && (
          // The public link: a new tab cannot carry the bearer header the /api download needs.
          <Menu.Item
            icon={<IconDownload size={16} />}
            component="a"
            href={project.downloadUrl}
            target="_blank"
            rel="noopener"
          >
            {t("projects.downloadZip")}
          </Menu.Item>
        )}
        <Menu.Item icon={<IconTrash size={16} />} color="red" onClick={onDelete}>
          {t("projects.delete")}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
