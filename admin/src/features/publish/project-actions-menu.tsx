import { ActionIcon, Menu } from "@mantine/core";
import { IconCopy, IconDots, IconDownload, IconExternalLink, IconLink, IconPencil } from "@tabler/icons-react";
import type { Project } from "../../../../api/types";
import { useNotification } from "@refinedev/core";
import { absoluteUrl, copyText } from "../../lib/copy-text";
import { isPublished } from "../../lib/project-status";
import { useClientLink } from "../delivery";
import { t } from "../../i18n";

/**
 * A phone's project header: everything but Publish / Unpublish in one menu (six buttons would
 * stack into four rows). The same actions as the wide header's buttons.
 */
export function ProjectActionsMenu({ project, onEdit }: { project: Project; onEdit: () => void }) {
  const { downloadUrl, deliveryUrl } = project;
  const published = isPublished(project);
  const { open } = useNotification();
  const clientLink = useClientLink();
  const copy = (link: string, what: "download" | "page") =>
    copyText(link).then(
      () =>
        open?.({
          type: "success",
          message: t(what === "download" ? "publish.downloadLinkCopied" : "publish.pageLinkCopied"),
        }),
      () =>
        open?.({
          type: "error",
          message: t(what === "download" ? "publish.downloadLinkNotCopied" : "publish.pageLinkNotCopied"),
        }),
    );
  return (
    <Menu position="bottom-end" withinPortal shadow="md">
      <Menu.Target>
        <ActionIcon variant="default" size={36} aria-label={t("publish.projectActions")}>
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item icon={<IconPencil size={16} />} onClick={onEdit}>
          {t("publish.editProject")}
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
              {t("publish.downloadZip")}
            </Menu.Item>
            <Menu.Item icon={<IconCopy size={16} />} onClick={() => copy(absoluteUrl(downloadUrl), "download")}>
              {t("publish.copyLink")}
            </Menu.Item>
          </>
        )}
        {published && deliveryUrl && (
          <>
            <Menu.Item icon={<IconLink size={16} />} onClick={() => copy(clientLink(deliveryUrl), "page")}>
              {t("publish.copyPageLink")}
            </Menu.Item>
            <Menu.Item
              icon={<IconExternalLink size={16} />}
              component="a"
              href={clientLink(deliveryUrl)}
              target="_blank"
              rel="noopener"
            >
              {t("publish.openDeliveryPage")}
            </Menu.Item>
          </>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
