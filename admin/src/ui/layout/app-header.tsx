import { lazy, Suspense } from "react";
import { ActionIcon, Box, Burger, Group, Header, MediaQuery, Text, Tooltip } from "@mantine/core";
import { useGetIdentity, useLogout, useOne, useWarnAboutChange } from "@refinedev/core";
import { IconLogout } from "@tabler/icons-react";
import type { User } from "../../providers/session";
import { navigationToggle, useNavigationOpened } from "./navigation-toggle";
import { PRODUCT_TITLE } from "./product-title";
import { UserMenu } from "./user-menu";
import { t } from "../../i18n";

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
      if (!window.confirm(t("warnWhenUnsavedChanges"))) return;
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
              aria-label={navigationOpened ? t("layout.closeNavigation") : t("layout.openNavigation")}
            />
          </MediaQuery>
          <AppTitle />
        </Group>
        <Group spacing="xs" noWrap>
          <Suspense fallback={null}>
            <NotificationSettingsButton />
          </Suspense>
          <UserMenu email={user?.email} />
          <Tooltip label={user?.email ?? t("layout.logOut")} position="bottom-end" withArrow>
            <ActionIcon size="lg" variant="light" aria-label={t("layout.logOut")} onClick={handleLogout}>
              <IconLogout size={20} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
    </Header>
  );
}

/**
 * The studio's name where it is set, with the product's line under it in small type (so both fit
 * a 390 px phone); the product's line alone until then, or for someone who may not read the studio.
 */
function AppTitle() {
  const { result: studio } = useOne<{ name: string | null }>({
    resource: "studio",
    id: "settings",
    errorNotification: false,
  });
  const studioName = studio?.name?.trim();
  // "Photodrop" is the name until a studio sets its own (STUDIO_NAME): no second line for it.
  if (!studioName || studioName === "Photodrop")
    return (
      <Text weight={700} size="lg" lineClamp={1}>
        {t(PRODUCT_TITLE)}
      </Text>
    );
  return (
    <Box sx={{ minWidth: 0, lineHeight: 1.2 }}>
      <Text weight={700} size="md" lineClamp={1} data-testid="studio-name">
        {studioName}
      </Text>
      <Text size="xs" color="dimmed" lineClamp={1}>
        {t(PRODUCT_TITLE)}
      </Text>
    </Box>
  );
}
