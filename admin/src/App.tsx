import { lazy, Suspense, useEffect, type ReactNode } from "react";
import { Center, Global, Loader, MantineProvider } from "@mantine/core";
import { NotificationsProvider } from "@mantine/notifications";
import { Authenticated, CanAccess, Refine, useIsAuthenticated, type HttpError } from "@refinedev/core";
import routerProvider, {
  CatchAllNavigate,
  DocumentTitleHandler,
  UnsavedChangesNotifier,
} from "@refinedev/react-router";
import { BrowserRouter, Navigate, Outlet, Route, Routes, useSearchParams } from "react-router";
import { AccessGate } from "./features/auth";
import { AppHeader } from "./ui/layout/app-header";
import { AppSider } from "./ui/layout/app-sider";
import { AppLayout } from "./ui/layout/app-layout";
// Static: the navigation needs this feature on every page anyway (the Users entry and its badge).
import { NoAccess, UserList } from "./features/users/index";
import { theme } from "./ui/theme";
import { accessControlProvider } from "./providers/access-control";
import { authProvider, followSessionChangesInOtherTabs } from "./providers/auth-provider";
import { dataProvider } from "./providers/data-provider";
import { liveProvider } from "./providers/live-provider";
import { useAppNotificationProvider } from "./providers/notification-provider";

const LoginPage = lazy(() => import("./features/auth/index").then((m) => ({ default: m.LoginPage })));
const RequestAccessPage = lazy(() => import("./features/auth").then((m) => ({ default: m.RequestAccessPage })));
const DashboardPage = lazy(() => import("./features/dashboard/index").then((m) => ({ default: m.DashboardPage })));
const ClientList = lazy(() => import("./features/clients/index").then((m) => ({ default: m.ClientList })));
const ClientShow = lazy(() => import("./features/clients/index").then((m) => ({ default: m.ClientShow })));
const ProjectList = lazy(() => import("./features/projects/index").then((m) => ({ default: m.ProjectList })));
const NotFound = lazy(() => import("@refinedev/mantine").then((m) => ({ default: m.ErrorComponent })));
const ProjectShow = lazy(() => import("./features/projects/index").then((m) => ({ default: m.ProjectShow })));

const FIVE_MINUTES = 5 * 60_000;
const APP_TITLE = "Photodrop - Photo Delivery, Fast";

const queryOptions = {
  staleTime: FIVE_MINUTES,
  gcTime: 2 * FIVE_MINUTES,
  // A 4xx will not change on a retry; a network hiccup might.
  retry: (failureCount: number, error: unknown) => {
    const status = (error as Partial<HttpError>)?.statusCode ?? 0;
    return failureCount < 2 && (status === 0 || status >= 500);
  },
};

function PageLoader({ fullScreen = false }: { fullScreen?: boolean }) {
  return (
    <Center h={fullScreen ? "100vh" : 200}>
      <Loader />
    </Center>
  );
}

function Lazy({ children, fullScreen }: { children: ReactNode; fullScreen?: boolean }) {
  return <Suspense fallback={<PageLoader fullScreen={fullScreen} />}>{children}</Suspense>;
}

/**
 * The login screen, or where a signed-in visitor goes instead. Unlike <Authenticated>, which shows
 * its loader again whenever the session check refetches, a re-check keeps the screen mounted, so
 * an opened "Forgot your password?" form or a typed address stays.
 */
function LoginRoute() {
  const { data, isLoading } = useIsAuthenticated();
  if (isLoading) return <PageLoader fullScreen />;
  if (data?.authenticated) return <SignedInAtLogin />;
  return (
    <Lazy fullScreen>
      <LoginPage />
    </Lazy>
  );
}

/** Signed-in users skip the login screen, except to follow a password-reset link. */
function SignedInAtLogin() {
  const [searchParams] = useSearchParams();
  if (searchParams.get("mode") === "reset") {
    return (
      <Lazy fullScreen>
        <LoginPage />
      </Lazy>
    );
  }
  return <Navigate to="/" replace />;
}

export function App() {
  useEffect(followSessionChangesInOtherTabs, []);
  return (
    <BrowserRouter>
      <MantineProvider theme={theme} withNormalizeCSS withGlobalStyles>
        <Global styles={{ body: { WebkitFontSmoothing: "auto" } }} />
        <NotificationsProvider position="top-right">
          <Refine
            routerProvider={routerProvider}
            dataProvider={dataProvider}
            liveProvider={liveProvider}
            authProvider={authProvider}
            accessControlProvider={accessControlProvider}
            notificationProvider={useAppNotificationProvider}
            resources={[
              // Records are edited in dialogs on their own page: `edit` points there.
              {
                name: "clients",
                list: "/clients/all",
                show: "/clients/:id",
                edit: "/clients/:id",
                meta: { label: "Clients" },
              },
              // Contacts are listed, added and edited on their client's page.
              { name: "contacts", meta: { label: "Contacts", parent: "clients", hide: true } },
              {
                name: "projects",
                list: "/projects/all",
                show: "/projects/:id",
                edit: "/projects/:id",
                meta: { label: "Projects" },
              },
              // A project's attachments are listed, uploaded, renamed and deleted on its page.
              { name: "attachments", meta: { label: "Attachments", parent: "projects", hide: true } },
              // The dashboard's totals: one record, `stats`, refreshed by the server's announcements.
              { name: "dashboard", meta: { label: "Dashboard", hide: true } },
              { name: "users", list: "/users", meta: { label: "Users" } },
            ]}
            options={{
              syncWithLocation: true,
              liveMode: "auto",
              warnWhenUnsavedChanges: true,
              disableTelemetry: true,
              title: { text: "Photodrop" },
              reactQuery: { clientConfig: { defaultOptions: { queries: queryOptions } } },
            }}
          >
            <Routes>
              <Route
                element={
                  <Authenticated
                    key="app"
                    fallback={<CatchAllNavigate to="/login" />}
                    loading={<PageLoader fullScreen />}
                  >
                    <AccessGate
                      fallback={
                        <Lazy fullScreen>
                          <RequestAccessPage />
                        </Lazy>
                      }
                    >
                      <AppLayout Header={AppHeader} Sider={AppSider}>
                        <Lazy>
                          <Outlet />
                        </Lazy>
                      </AppLayout>
                    </AccessGate>
                  </Authenticated>
                }
              >
                <Route index element={<DashboardPage />} />
                <Route path="/clients">
                  <Route index element={<Navigate to="/clients/all" replace />} />
                  <Route path="all" element={<ClientList />} />
                  <Route path="recent" element={<ClientList />} />
                  <Route path=":id" element={<ClientShow />} />
                </Route>
                <Route path="/projects">
                  <Route index element={<Navigate to="/projects/all" replace />} />
                  <Route path="all" element={<ProjectList />} />
                  <Route path="recent" element={<ProjectList />} />
                  <Route path=":id" element={<ProjectShow />} />
                </Route>
                <Route
                  path="/users"
                  element={
                    <CanAccess resource="users" action="list" fallback={<NoAccess />}>
                      <UserList />
                    </CanAccess>
                  }
                />
                <Route path="*" element={<NotFound />} />
              </Route>
              <Route path="/login" element={<LoginRoute />} />
            </Routes>
            <UnsavedChangesNotifier />
            <DocumentTitleHandler
              handler={({ resource, action }) => {
                const label = resource?.meta?.label ?? resource?.name;
                return label && action ? `${label} | Photodrop` : APP_TITLE;
              }}
            />
          </Refine>
        </NotificationsProvider>
      </MantineProvider>
    </BrowserRouter>
  );
}
