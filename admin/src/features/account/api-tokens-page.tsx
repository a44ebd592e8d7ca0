import { useState } from "react";
import { Button, Group, ScrollArea, Stack, Text, Title } from "@mantine/core";
import { useGetIdentity, useList } from "@refinedev/core";
import { IconKey, IconPlus } from "@tabler/icons-react";
import type { ApiToken, User } from "../../../../api/types";
import { usePhone } from "../../lib/use-phone";
import { FailureAlert } from "../../ui/failure-alert";
import { ApiTokenCards, ApiTokenTable } from "./api-token-list";
import { NewTokenDialog } from "./new-token-dialog";
import { t } from "../../i18n";

/** /account/tokens: the signed-in user's API tokens for scripts and integrations. */
export function ApiTokensPage() {
  const phone = usePhone();
  const { data: user } = useGetIdentity<User>();
  const [creating, setCreating] = useState(false);
  // When the page opened: what "expired" is measured against.
  const [now] = useState(() => Date.now());
  const { result, query } = useList<ApiToken>({
    resource: "users/me/tokens",
    pagination: { mode: "off" },
    errorNotification: false,
  });
  const tokens = result.data ?? [];

  return (
    <Stack spacing="md" maw={960}>
      <Group position="apart">
        <Title order={1} size="h2">
          {t("account.apiTokens")}
        </Title>
        <Button leftIcon={<IconPlus size={18} />} onClick={() => setCreating(true)}>
          {t("account.newToken")}
        </Button>
      </Group>
      <Text color="dimmed">{t("account.tokensIntro")}</Text>
      {query.isError ? (
        <FailureAlert message={t("account.failedToLoadYourApiTokens")} mt={0} />
      ) : tokens.length === 0 && !query.isLoading ? (
        <Group spacing="xs" c="dimmed">
          <IconKey size={18} />
          <Text>{t("account.noApiTokensYet")}</Text>
        </Group>
      ) : phone ? (
        <ApiTokenCards tokens={tokens} now={now} />
      ) : (
        <ScrollArea>
          <ApiTokenTable tokens={tokens} now={now} />
        </ScrollArea>
      )}
      {creating && <NewTokenDialog onClose={() => setCreating(false)} isAdmin={user?.role === "admin"} />}
    </Stack>
  );
}
