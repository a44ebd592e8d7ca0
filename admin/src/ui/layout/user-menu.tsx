import { ActionIcon, Menu } from "@mantine/core";
import { IconApi, IconKey, IconUserCircle } from "@tabler/icons-react";
import { useNavigate } from "react-router";

/** The signed-in person's own things: their API tokens, the API's reference (and, later, their sign-in security). */
export function UserMenu({ email }: { email: string | undefined }) {
  const navigate = useNavigate();
  return (
    <Menu position="bottom-end" withArrow shadow="md">
      <Menu.Target>
        <ActionIcon size="lg" variant="light" aria-label="Account menu">
          <IconUserCircle size={20} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {email && <Menu.Label>{email}</Menu.Label>}
        <Menu.Item icon={<IconKey size={16} />} onClick={() => navigate("/account/tokens")}>
          API tokens
        </Menu.Item>
        {/* Served by the server itself (swagger-ui), outside the web app's routes. */}
        <Menu.Item
          component="a"
          href="/api/docs"
          target="_blank"
          rel="noopener noreferrer"
          icon={<IconApi size={16} />}
        >
          API reference
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
