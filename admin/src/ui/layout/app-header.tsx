import { lazy, Suspense } from "react";
import { ActionIcon, Burger, Group, Header, MediaQuery, Text, Tooltip } from "@mantine/core";
import { useGetIdentity, useLogout, useWarnAboutChange } from "@refinedev/core";
import { IconLogout } from "@tabler/icons-react";
import type { User } from "../../providers/session";
import { navigationToggle, useNavigationOpened } from "./navigation-toggle";

// The bell (selections received, mail settings) is a chunk of its own: /login, which shares this
// module's chunk, stays within its script budget, and the bell follows the header in a moment.
const NotificationSettingsButton = lazy(() =>
  import("../../features/sending").then((module) => ({ default: module.NotificationSettingsButton })),
);

export const HEADER_HEIGHT = 60;

export function AppHeader() {
  const { data: user } = useGetIdentity<User>();
  const { mutate: logout } = useLogout();
  const { warnWhen, setWarnWhen } = useWarnAboutChange();
  const navigationOpened = useNavigationOpened();

  const handleLogout = () => {
    if (warnWhen) {
      if (!window.confirm("Are you sure you want to leave? You have unsaved changes.")) return;
      setWarnWhen(false);
    }
    logout();
  };

  return (
    <Header height={HEADER_HEIGHT} px="md" zIndex={199} sx={{ position: "sticky", top: 0 }}>
      <Group position="apart" noWrap h="100%">
        <Group spacing="sm" noWrap sx={{ minWidth: 0 }}>
          <MediaQuery largerThan="sm" styles={{ display: "none" }}>
            <Burger
              opened={navigationOpened}
              onClick={navigationToggle.toggle}
              size="sm"
              aria-label={navigationOpened ? "Close navigation" : "Open navigation"}
            />
          </MediaQuery>
          <Text weight={700} size="lg" lineClamp={1}>
            Photodrop - Photo Delivery, Fast
          </Text>
        </Group>
        <Group spacing="xs" noWrap>
          <Suspense fallback={null}>
            <NotificationSettingsButton />
          </Suspense>
          <Tooltip label={user?.email ?? "Log out"} position="bottom-end" withArrow>
            <ActionIcon size="lg" variant="light" aria-label="Log out" onClick={handleLogout}>
              <IconLogout size={20} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
    </Header>
  );
}
