import { ActionIcon, Group, Menu, Tooltip } from "@mantine/core";
import { IconDots, IconEdit, IconEye, IconTrash } from "@tabler/icons-react";
import { Link } from "react-router";
import type { Client } from "./types";
import { t } from "../../i18n";

interface ClientRowActionsProps {
  client: Client;
  onEdit: (client: Client) => void;
  onDelete: (client: Client) => void;
}

/** A row's view icon and its Edit / Delete menu. */
export function ClientRowActions({ client, onEdit, onDelete }: ClientRowActionsProps) {
  return (
    <Group spacing={4} noWrap position="right">
      <Tooltip label={t("clients.viewClient")} withArrow>
        <ActionIcon
          component={Link}
          to={`/clients/${client.id}`}
          aria-label={t("clients.view", { name: client.name })}
          variant="subtle"
        >
          <IconEye size={18} />
        </ActionIcon>
      </Tooltip>
      <Menu position="bottom-end" withinPortal shadow="md">
        <Menu.Target>
          <ActionIcon aria-label={t("clients.actionsFor", { name: client.name })} variant="subtle">
            <IconDots size={18} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item icon={<IconEdit size={16} />} onClick={() => onEdit(client)}>
            {t("clients.edit")}
          </Menu.Item>
          <Menu.Item color="red" icon={<IconTrash size={16} />} onClick={() => onDelete(client)}>
            {t("clients.delete")}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}
