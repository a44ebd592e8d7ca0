import { useState } from "react";
import { Alert, Button, Center, Paper, Stack, Text, Textarea, Title } from "@mantine/core";
import { useCustomMutation, useGetIdentity, useLogout } from "@refinedev/core";
import { IconCircleCheck } from "@tabler/icons-react";
import type { User } from "../../providers/session";
import { t } from "../../i18n";

export function RequestAccessPage() {
  const { data: user } = useGetIdentity<User>();
  const { mutate: logout } = useLogout();
  const { mutate: submit, mutation } = useCustomMutation();
  const [message, setMessage] = useState("");
  const [submitted, setSubmitted] = useState(false);
  const [failed, setFailed] = useState(false);

  const handleSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    setFailed(false);
    const trimmed = message.trim();
    submit(
      {
        url: "/users/me/request-access",
        method: "post",
        values: trimmed ? { message: trimmed } : {},
        successNotification: false,
        errorNotification: false,
      },
      {
        onSuccess: () => setSubmitted(true),
        onError: () => setFailed(true),
      },
    );
  };

  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" w={480} maw="100%">
        {submitted ? (
          <Stack spacing="md" align="center">
            <IconCircleCheck size={48} color="green" />
            <Title order={1} size="h2">
              {t("auth.accessRequestSubmitted")}
            </Title>
            <Text align="center">{t("auth.yourRequestForAccessHasBeen")}</Text>
            <Text align="center" size="sm" color="dimmed">
              {t("auth.ifYouNeedImmediateAssistancePlease")}
            </Text>
            <Button variant="subtle" onClick={() => logout()}>
              {t("auth.signOut")}
            </Button>
          </Stack>
        ) : (
          <form onSubmit={handleSubmit}>
            <Stack spacing="md">
              <Title order={1} size="h2">
                {t("auth.requestAccess")}
              </Title>
              <Text color="dimmed">{t("auth.youNeedApprovalToAccessThis")}</Text>
              <Stack spacing={4}>
                <Text size="sm">
                  <Text span weight={600}>
                    {t("auth.email2")}{" "}
                  </Text>
                  {user?.email ?? ""}
                </Text>
                <Text size="sm">
                  <Text span weight={600}>
                    {t("auth.name2")}{" "}
                  </Text>
                  {user?.displayName || t("auth.notProvided")}
                </Text>
              </Stack>
              <Textarea
                label={t("auth.messageOptional")}
                placeholder={t("auth.tellTheAdministratorWhoYouAre")}
                autosize
                minRows={3}
                value={message}
                onChange={(event) => setMessage(event.currentTarget.value)}
              />
              {failed && (
                <Alert color="red" role="alert">
                  {t("auth.requestFailed")}
                </Alert>
              )}
              <Button type="submit" loading={mutation.isPending}>
                {t("auth.submitRequest")}
              </Button>
              <Button variant="subtle" onClick={() => logout()}>
                {t("auth.signOut")}
              </Button>
            </Stack>
          </form>
        )}
      </Paper>
    </Center>
  );
}
