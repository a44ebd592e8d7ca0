import type { ReactNode } from "react";
import { HEADER_HEIGHT } from "./app-header";
import { Navbar, NavLink, ScrollArea, Text } from "@mantine/core";
import { useList } from "@refinedev/core";
import { Link, useLocation } from "react-router";
import { IconDashboard, IconFolders, IconList, IconUsers, IconClock } from "@tabler/icons-react";
import { UsersNavLink } from "../../features/users/index";
import { StudioNavLink } from "../../features/studio/index";
import { WebhooksNavLink } from "../../features/webhooks/index";
import { navigationToggle, useNavigationOpened } from "./navigation-toggle";
import { t } from "../../i18n";

export const NAVBAR_WIDTH = 300;
const RECENT_PROJECTS = 4;
const RECENT_CLIENTS = 5;

interface NamedRecord {
  id: number;
  name: string;
}

/** The first few records of a resource, newest first, for the navigation's recent lists. */
function useRecent(resource: string, count: number): NamedRecord[] {
  const { result } = useList<NamedRecord>({
    resource,
    pagination: { currentPage: 1, pageSize: count },
    sorters: [
      { field: "createdAt", order: "desc" },
      { field: "id", order: "desc" },
    ],
  });
  return result.data;
}

interface SiderLinkProps {
  to: string;
  label: ReactNode;
  icon?: ReactNode;
  pathname: string;
  indent?: number;
}

function SiderLink({ to, label, icon, pathname, indent }: SiderLinkProps) {
  return <NavLink component={Link} to={to} label={label} icon={icon} active={pathname === to} pl={indent} />;
}

function RecentItems({ items, basePath, pathname }: { items: NamedRecord[]; basePath: string; pathname: string }) {
  return (
    <>
      {items.map((item) => (
        <SiderLink
          key={item.id}
          to={`${basePath}/${item.id}`}
          pathname={pathname}
          indent={42}
          label={
            <Text size="sm" truncate>
              {item.name}
            </Text>
          }
        />
      ))}
    </>
  );
}

export function AppSider() {
  const { pathname } = useLocation();
  const recentProjects = useRecent("projects", RECENT_PROJECTS);
  const recentClients = useRecent("clients", RECENT_CLIENTS);
  const opened = useNavigationOpened();

  return (
    <Navbar
      width={{ base: NAVBAR_WIDTH }}
      p="xs"
      aria-label={t("layout.mainNavigation")}
      hiddenBreakpoint="sm"
      hidden={!opened}
      // Under dialogs (200): Mantine's default (1000) drew the navigation over the full-screen lightbox.
      zIndex={150}
      // Following a link on a phone closes the navigation it was chosen from.
      onClickCapture={(event) => {
        if ((event.target as HTMLElement).closest("a")) navigationToggle.close();
      }}
      sx={(theme) => ({
        position: "sticky",
        top: 0,
        height: "100vh",
        flexShrink: 0,
        // Below 768 px the navigation is a full-width panel under the header, opened by the burger.
        [theme.fn.smallerThan("sm")]: {
          position: "fixed",
          top: HEADER_HEIGHT,
          left: 0,
          width: "100%",
          height: `calc(100dvh - ${HEADER_HEIGHT}px)`,
          zIndex: 200,
        },
      })}
    >
      <Navbar.Section grow component={ScrollArea}>
        <SiderLink to="/" label={t("layout.dashboard")} icon={<IconDashboard size={20} />} pathname={pathname} />
        <NavLink label={t("layout.projects")} icon={<IconFolders size={20} />} defaultOpened childrenOffset={16}>
          <SiderLink
            to="/projects/all"
            label={t("layout.allProjects")}
            icon={<IconList size={18} />}
            pathname={pathname}
          />
          <SiderLink
            to="/projects/recent"
            label={t("layout.recentProjects")}
            icon={<IconClock size={18} />}
            pathname={pathname}
          />
          <RecentItems items={recentProjects} basePath="/projects" pathname={pathname} />
        </NavLink>
        <NavLink label={t("layout.clients")} icon={<IconUsers size={20} />} defaultOpened childrenOffset={16}>
          <SiderLink
            to="/clients/all"
            label={t("layout.allClients")}
            icon={<IconList size={18} />}
            pathname={pathname}
          />
          <SiderLink
            to="/clients/recent"
            label={t("layout.recentClients")}
            icon={<IconClock size={18} />}
            pathname={pathname}
          />
          <RecentItems items={recentClients} basePath="/clients" pathname={pathname} />
        </NavLink>
        <UsersNavLink pathname={pathname} />
        <StudioNavLink pathname={pathname} />
        <WebhooksNavLink pathname={pathname} />
      </Navbar.Section>
    </Navbar>
  );
}
