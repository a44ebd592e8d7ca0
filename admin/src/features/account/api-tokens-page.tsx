import { useState } from "react";
import { Badge, Button, Group, ScrollArea, Stack, Table, Text, Title } from "@mantine/core";
import { useDelete, useGetIdentity, useList } from "@refinedev/core";
import { IconKey, IconPlus } from "@tabler/icons-react";
import type { ApiToken, User } from "../../../../api/types";
import { formatDateTime } from "../../lib/format";
import { ConfirmButton } from "../../ui/confirm-button";
import { FailureAlert } from "../../ui/failure-alert";
import { NewTokenDialog } from "./new-token-dialog";
import { t } from "../../i18n";

const SCOPE_LABELS = { read: "account.readOnly", write: "account.readWrite", admin: "account.admin" } as const;

/** /account/tokens: the signed-in user's API tokens for scripts and integrations. */
export function ApiTokensPage() {
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
      ) : (
        <ScrollArea>
          <Table miw={760} verticalSpacing="sm" aria-label={t("account.apiTokens")}>
            <thead>
              <tr>
                <th>{t("account.name")}</th>
                <th>{t("account.access")}</th>
                <th>{t("account.token")}</th>
                <th>{t("account.created")}</th>
                <th>{t("account.expires")}</th>
                <th>{t("account.lastUsed")}</th>
                <th aria-label={t("account.actions")} />
              </tr>
            </thead>
            <tbody>
              {tokens.map((token) => (
                <TokenRow key={token.id} token={token} now={now} />
              ))}
            </tbody>
          </Table>
        </ScrollArea>
      )}
      {creating && <NewTokenDialog onClose={() => setCreating(false)} isAdmin={user?.role === "admin"} />}
    </Stack>
  );
}

function TokenRow({ token, now }: { token: ApiToken; now: number }) {
  const { mutateAsync: remove, mutation } = useDelete();
  const expired = token.expiresAt !== null && Date.parse(token.expiresAt) <= now;
  return (
    <tr>
      <td>{token.name}</td>
      <td>
        <Badge variant="light" color={token.scope === "read" ? "gray" : token.scope === "write" ? "blue" : "red"}>
          {t(SCOPE_LABELS[token.scope])}
        </Badge>
      </td>
      <td>
        <Text ff="monospace" size="sm">
          {token.prefix}…
        </Text>
      </td>
      <td>{formatDateTime(token.createdAt)}</td>
      <td>
        {token.expiresAt
          ? expired
            ? t("account.expiredOn", { expiresAt: formatDateTime(token.expiresAt) })
            : formatDateTime(token.expiresAt)
          : t("account.never")}
      </td>
      <td>
        {token.lastUsedAt ? (
          <>
            {formatDateTime(token.lastUsedAt)}
            {token.lastUsedAddress && (
              <Text size="xs" color="dimmed">
                {t("account.from", { lastUsedAddress: token.lastUsedAddress })}
              </Text>
            )}
          </>
        ) : (
          t("account.never")
        )}
      </td>
      <td>
        <ConfirmButton
          label={t("account.delete")}
          title={t("account.deleteTheToken", { name: token.name })}
          confirmLabel={t("account.deleteToken")}
          color="red"
          variant="subtle"
          pending={mutation.isPending}
          onConfirm={() =>
            remove({ resource: "users/me/tokens", id: token.id, successNotification: false, errorNotification: false })
          }
        >
          <Text size="sm" mb="md">
            {t("account.whateverUsesItStopsWorkingAt")}
          </Text>
        </ConfirmButton>
      </td>
    </tr>
  );
}
