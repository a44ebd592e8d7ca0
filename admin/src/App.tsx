import { lazy, Suspense, useEffect, type ReactNode } from "react";
import { Center, Global, Loader, MantineProvider } from "@mantine/core";
import { NotificationsProvider } from "@mantine/notifications";
import { Authenticated, CanAccess, Refine, useIsAuthenticated, type HttpError } from "@refinedev/core";
import { useTranslation } from "react-i18next";
import routerProvider, {
  CatchAllNavigate,
  DocumentTitleHandler,
  UnsavedChangesNotifier,
} from "@refinedev/react-router";
import { BrowserRouter, Navigate, Outlet, Route, Routes, useSearchParams } from "react-router";
import { i18nProvider, t } from "./i18n";
import { FollowUserLanguage } from "./i18n/follow-user-language";
import { lazyPage } from "./lib/lazy-page";
import { PRODUCT_TITLE } from "./ui/layout/product-title";
// Static: the navigation needs this feature on every page anyway (the Users entry and its badge).
import { NoAccess, UserList } from "./features/users/index";
import { StudioSettingsPage } from "./features/studio/index";
import { WebhooksPage } from "./features/webhooks/index";
import { themeInLanguage } from "./ui/theme";
import { accessControlProvider } from "./providers/access-control";
import { authProvider, followSessionChangesInOtherTabs } from "./providers/auth-provider";
import { dataProvider } from "./providers/data-provider";
import { liveProvider, liveQueryClient } from "./providers/live-provider";
import { useAppNotificationProvider } from "./providers/notification-provider";

// Each screen's code is a chunk of its own; the one the address opens starts loading at once,
// beside the session check, instead of after it.
const loadAuth = () => import("./features/auth/index");
const loadClients = () => import("./features/clients/index");
const loadProjects = () => import("./features/projects/index");
const Login = lazyPage(loadAuth, (m) => m.LoginPage);
const RequestAccessPage = lazy(() => loadAuth().then((m) => ({ default: m.RequestAccessPage })));
const Dashboard = lazyPage(
  () => import("./features/dashboard/index"),
  (m) => m.DashboardPage,
);
const ClientList = lazyPage(loadClients, (m) => m.ClientList);
const ClientShow = lazyPage(loadClients, (m) => m.ClientShow);
const ProjectList = lazyPage(loadProjects, (m) => m.ProjectList);
const ProjectShow = lazyPage(loadProjects, (m) => m.ProjectShow);
const ApiTokens = lazyPage(
  () => import("./features/account/index"),
  (m) => m.ApiTokensPage,
);
const Security = lazyPage(
  () => import("./features/account/index"),
  (m) => m.SecurityPage,
);
// The header, the navigation and the access check: not part of the sign-in page's load.
const SignedInShell = lazyPage(
  () => import("./ui/layout/signed-in-shell"),
  (m) => m.SignedInShell,
);
const NotFound = lazy(() => import("@refinedev/mantine").then((m) => ({ default: m.ErrorComponent })));

const SCREEN_BY_PATH: Array<[RegExp, { preload: () => Promise<unknown> }]> = [
  [/^\/login$/, Login],
  [/^\/$/, Dashboard],
  [/^\/clients\/(all|recent)$/, ClientList],
  [/^\/clients\/\d+$/, ClientShow],
  [/^\/projects\/(all|recent)$/, ProjectList],
  [/^\/projects\/\d+$/, ProjectShow],
];
void SCREEN_BY_PATH.find(([path]) => path.test(window.location.pathname))?.[1].preload();
if (window.location.pathname !== "/login") void SignedInShell.preload();

const FIVE_MINUTES = 5 * 60_000;

const queryOptions = {
  staleTime: FIVE_MINUTES,
  gcTime: 2 * FIVE_MINUTES,
  // A 4xx will not change on a retry; a network hiccup might.
  retry: (failureCount: number, error: unknown) => {
    const status = (error as Partial<HttpError>)?.statusCode ?? 0;
    return failureCount < 2 && (status === 0 || status >= 500);
  },
};
const queryClient = liveQueryClient({ defaultOptions: { queries: queryOptions } });

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
      <Login.Page />
    </Lazy>
  );
}

/** Signed-in users skip the login screen, except to follow a password-reset link. */
function SignedInAtLogin() {
  const [searchParams] = useSearchParams();
  if (searchParams.get("mode") === "reset") {
    return (
      <Lazy fullScreen>
        <Login.Page />
      </Lazy>
    );
  }
  return <Navigate to="/" replace />;
}

export function App() {
  useEffect(followSessionChangesInOtherTabs, []);
  // Screens read their words while rendering: a new language draws the routes again.
  const { i18n } = useTranslation();
  return (
    <BrowserRouter>
      <MantineProvider theme={themeInLanguage()} withNormalizeCSS withGlobalStyles>
        <Global styles={{ body: { WebkitFontSmoothing: "auto" } }} />
        <NotificationsProvider position="top-right">
          <Refine
            routerProvider={routerProvider}
            dataProvider={dataProvider}
            liveProvider={liveProvider}
            authProvider={authProvider}
            accessControlProvider={accessControlProvider}
            notificationProvider={useAppNotificationProvider}
            i18nProvider={i18nProvider}
            resources={[
              // Records are edited in dialogs on their own page: `edit` points there.
              {
                name: "clients",
                list: "/clients/all",
                show: "/clients/:id",
                edit: "/clients/:id",
                meta: { label: t("app.resourceClients") },
              },
              // Contacts are listed, added and edited on their client's page.
              { name: "contacts", meta: { label: t("app.resourceContacts"), parent: "clients", hide: true } },
              {
                name: "projects",
                list: "/projects/all",
                show: "/projects/:id",
                edit: "/projects/:id",
                meta: { label: t("app.resourceProjects") },
              },
              // A project's attachments are listed, uploaded, renamed and deleted on its page.
              { name: "attachments", meta: { label: t("app.resourceAttachments"), parent: "projects", hide: true } },
              // The dashboard's totals: one record, `stats`, refreshed by the server's announcements.
              { name: "dashboard", meta: { label: t("app.resourceDashboard"), hide: true } },
              { name: "users", list: "/users", meta: { label: t("app.resourceUsers") } },
              // The studio's branding: one record, `settings`, which admins change on /studio.
              { name: "studio", list: "/studio", meta: { label: t("app.resourceStudio") } },
              // Endpoints that hear about the studio's events (admins); their attempts open in a drawer.
              { name: "webhooks", list: "/webhooks", meta: { label: t("app.resourceWebhooks") } },
            ]}
            options={{
              syncWithLocation: true,
              liveMode: "auto",
              warnWhenUnsavedChanges: true,
              disableTelemetry: true,
              title: { text: "Photodrop" },
              reactQuery: { clientConfig: queryClient },
            }}
          >
            <FollowUserLanguage />
            <Routes key={i18n.language}>
              <Route
                element={
                  <Authenticated
                    key="app"
                    fallback={<CatchAllNavigate to="/login" />}
                    loading={<PageLoader fullScreen />}
                  >
                    <Lazy fullScreen>
                      <SignedInShell.Page
                        requestAccess={
                          <Lazy fullScreen>
                            <RequestAccessPage />
                          </Lazy>
                        }
                      >
                        <Lazy>
                          <Outlet />
                        </Lazy>
                      </SignedInShell.Page>
                    </Lazy>
                  </Authenticated>
                }
              >
                <Route index element={<Dashboard.Page />} />
                <Route path="/clients">
                  <Route index element={<Navigate to="/clients/all" replace />} />
                  <Route path="all" element={<ClientList.Page />} />
                  <Route path="recent" element={<ClientList.Page />} />
                  <Route path=":id" element={<ClientShow.Page />} />
                </Route>
                <Route path="/projects">
                  <Route index element={<Navigate to="/projects/all" replace />} />
                  <Route path="all" element={<ProjectList.Page />} />
                  <Route path="recent" element={<ProjectList.Page />} />
                  <Route path=":id" element={<ProjectShow.Page />} />
                </Route>
                <Route
                  path="/users"
                  element={
                    <CanAccess resource="users" action="list" fallback={<NoAccess />}>
                      <UserList />
                    </CanAccess>
                  }
                />
                <Route
                  path="/studio"
                  element={
                    <CanAccess resource="studio" action="list" fallback={<NoAccess />}>
                      <StudioSettingsPage />
                    </CanAccess>
                  }
                />
                <Route
                  path="/webhooks"
                  element={
                    <CanAccess resource="webhooks" action="list" fallback={<NoAccess />}>
                      <WebhooksPage />
                    </CanAccess>
                  }
                />
                <Route path="/account/tokens" element={<ApiTokens.Page />} />
                <Route path="/account/security" element={<Security.Page />} />
                <Route path="*" element={<NotFound />} />
              </Route>
              <Route path="/login" element={<LoginRoute />} />
            </Routes>
            <UnsavedChangesNotifier />
            <DocumentTitleHandler
              handler={({ resource, action }) => {
                const label = resource?.meta?.label ?? resource?.name;
                return label && action ? `${label} | Photodrop` : t(PRODUCT_TITLE);
              }}
            />
          </Refine>
        </NotificationsProvider>
      </MantineProvider>
    </BrowserRouter>
  );
}
