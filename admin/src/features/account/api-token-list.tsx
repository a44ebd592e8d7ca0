import { Badge, Group, Paper, Stack, Table, Text } from "@mantine/core";
import type { ApiToken } from "../../../../api/types";
import { formatDateTime } from "../../lib/format";
import { ConfirmDeleteButton } from "../../ui/confirm-button";
import { CardLine } from "../../ui/row-cards";
import { t } from "../../i18n";

const SCOPE_LABELS = { read: "account.readOnly", write: "account.readWrite", admin: "account.admin" } as const;

export interface ApiTokenListProps {
  tokens: ApiToken[];
  /** When the page opened: what "expired" is measured against. */
  now: number;
}

function ScopeBadge({ token }: { token: ApiToken }) {
  return (
    <Badge variant="light" color={token.scope === "read" ? "gray" : token.scope === "write" ? "blue" : "red"}>
      {t(SCOPE_LABELS[token.scope])}
    </Badge>
  );
}

function Prefix({ token }: { token: ApiToken }) {
  return (
    <Text ff="monospace" size="sm" sx={{ overflowWrap: "anywhere" }}>
      {token.prefix}…
    </Text>
  );
}

function Expires({ token, now }: { token: ApiToken; now: number }) {
  if (!token.expiresAt) return <>{t("account.never")}</>;
  if (Date.parse(token.expiresAt) <= now)
    return <>{t("account.expiredOn", { expiresAt: formatDateTime(token.expiresAt) })}</>;
  return <>{formatDateTime(token.expiresAt)}</>;
}

function LastUsed({ token }: { token: ApiToken }) {
  if (!token.lastUsedAt) return <>{t("account.never")}</>;
  return (
    <>
      {formatDateTime(token.lastUsedAt)}
      {token.lastUsedAddress && (
        <Text size="xs" color="dimmed" sx={{ overflowWrap: "anywhere" }}>
          {t("account.from", { lastUsedAddress: token.lastUsedAddress })}
        </Text>
      )}
    </>
  );
}

function DeleteToken({ token }: { token: ApiToken }) {
  return (
    <ConfirmDeleteButton
      resource="users/me/tokens"
      id={token.id}
      label={t("account.delete")}
      title={t("account.deleteTheToken", { name: token.name })}
      confirmLabel={t("account.deleteToken")}
    >
      <Text size="sm" mb="md">
        {t("account.whateverUsesItStopsWorkingAt")}
      </Text>
    </ConfirmDeleteButton>
  );
}

/** The tokens as a table (wider screens). */
export function ApiTokenTable({ tokens, now }: ApiTokenListProps) {
  return (
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
          <tr key={token.id}>
            <td>{token.name}</td>
            <td>
              <ScopeBadge token={token} />
            </td>
            <td>
              <Prefix token={token} />
            </td>
            <td>{formatDateTime(token.createdAt)}</td>
            <td>
              <Expires token={token} now={now} />
            </td>
            <td>
              <LastUsed token={token} />
            </td>
            <td>
              <DeleteToken token={token} />
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

/** A phone's cards: the table's values, each labelled, and Delete at each card's foot. */
export function ApiTokenCards({ tokens, now }: ApiTokenListProps) {
  return (
    <Stack role="list" aria-label={t("account.apiTokens")} spacing="sm">
      {tokens.map((token) => (
        <Paper key={token.id} role="listitem" withBorder radius="md" p="sm">
          <Stack spacing={6}>
            <Group position="apart" noWrap align="flex-start">
              <Text size="sm" weight={600} sx={{ minWidth: 0, overflowWrap: "anywhere" }}>
                {token.name}
              </Text>
              <ScopeBadge token={token} />
            </Group>
            <CardLine label={t("account.token")}>
              <Prefix token={token} />
            </CardLine>
            <CardLine label={t("account.created")}>{formatDateTime(token.createdAt)}</CardLine>
            <CardLine label={t("account.expires")}>
              <Expires token={token} now={now} />
            </CardLine>
            <CardLine label={t("account.lastUsed")}>
              <LastUsed token={token} />
            </CardLine>
            <Group position="right">
              <DeleteToken token={token} />
            </Group>
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}
