import { Badge, Button, Group, Paper, Stack, Table, Text, Title } from "@mantine/core";
import { useCustomMutation, useDelete, useList } from "@refinedev/core";
import { formatDateTime } from "../../../lib/format";
import { usePhone } from "../../../lib/use-phone";
import { ConfirmButton } from "../../../ui/confirm-button";
import { CardLine } from "../../../ui/row-cards";
import { FailureAlert } from "../../../ui/failure-alert";
import { t } from "../../../i18n";

const SESSIONS = "users/me/sessions";

interface SignInSession {
  id: string;
  browser: string | null;
  system: string | null;
  address: string | null;
  createdAt: string;
  lastActiveAt: string;
  current: boolean;
}

const deviceName = (session: SignInSession) =>
  [session.browser, session.system].filter(Boolean).join(" · ") || t("security.unknownDevice");

function SignOutButton({ session }: { session: SignInSession }) {
  const { mutateAsync: remove, mutation } = useDelete();
  if (session.current) return null;
  return (
    <Button
      variant="subtle"
      color="red"
      loading={mutation.isPending}
      aria-label={t("security.signOutDevice", { device: deviceName(session) })}
      onClick={() =>
        void remove({ resource: SESSIONS, id: session.id, successNotification: false, errorNotification: false })
      }
    >
      {t("security.signOut")}
    </Button>
  );
}

function DeviceName({ session }: { session: SignInSession }) {
  return (
    <Group spacing="xs">
      <Text weight={600}>{deviceName(session)}</Text>
      {session.current && (
        <Badge color="green" variant="light">
          {t("security.thisDevice")}
        </Badge>
      )}
    </Group>
  );
}

function SessionCard({ session }: { session: SignInSession }) {
  return (
    <Paper role="listitem" withBorder radius="md" p="sm">
      <Stack spacing={6}>
        <DeviceName session={session} />
        <CardLine label={t("security.address")}>{session.address ?? ""}</CardLine>
        <CardLine label={t("security.signedInAt")}>{formatDateTime(session.createdAt)}</CardLine>
        <CardLine label={t("security.lastActive")}>{formatDateTime(session.lastActiveAt)}</CardLine>
        <Group position="right">
          <SignOutButton session={session} />
        </Group>
      </Stack>
    </Paper>
  );
}

/** Devices signed in: every session, 'Sign out' on each but this one, and 'Sign out everywhere else'. */
export function SessionsSection() {
  const phone = usePhone();
  const { result, query } = useList<SignInSession>({
    resource: SESSIONS,
    pagination: { mode: "off" },
    errorNotification: false,
  });
  const { mutateAsync: signOutOthers, mutation } = useCustomMutation();
  const sessions = result.data ?? [];
  const others = sessions.filter((session) => !session.current).length;

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="security-sessions">
      <Stack spacing="sm">
        <Group position="apart" spacing="xs">
          <Title order={2} size="h3" id="security-sessions">
            {t("security.devicesTitle")}
          </Title>
          {others > 0 && (
            <ConfirmButton
              label={t("security.signOutEverywhereElse")}
              title={t("security.signOutEverywhereElseTitle")}
              confirmLabel={t("security.signOutEverywhereElse")}
              color="red"
              variant="light"
              pending={mutation.isPending}
              onConfirm={() =>
                signOutOthers({
                  url: `/${SESSIONS}`,
                  method: "delete",
                  values: {},
                  successNotification: false,
                  errorNotification: false,
                }).then(() => query.refetch())
              }
            >
              <Text size="sm" mb="md">
                {t("security.signOutEverywhereElseExplain", { count: others })}
              </Text>
            </ConfirmButton>
          )}
        </Group>
        <Text size="sm" color="dimmed">
          {t("security.devicesIntro")}
        </Text>
        {query.isError ? (
          <FailureAlert message={t("security.failedToLoad")} mt={0} />
        ) : phone ? (
          <Stack role="list" aria-label={t("security.devicesTitle")} spacing="xs">
            {sessions.map((session) => (
              <SessionCard key={session.id} session={session} />
            ))}
          </Stack>
        ) : (
          <Table verticalSpacing="sm" aria-label={t("security.devicesTitle")}>
            <thead>
              <tr>
                <th>{t("security.device")}</th>
                <th>{t("security.address")}</th>
                <th>{t("security.signedInAt")}</th>
                <th>{t("security.lastActive")}</th>
                <th aria-label={t("security.actions")} />
              </tr>
            </thead>
            <tbody>
              {sessions.map((session) => (
                <tr key={session.id}>
                  <td>
                    <DeviceName session={session} />
                  </td>
                  <td>{session.address}</td>
                  <td>{formatDateTime(session.createdAt)}</td>
                  <td>{formatDateTime(session.lastActiveAt)}</td>
                  <td>
                    <SignOutButton session={session} />
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Stack>
    </Paper>
  );
}
