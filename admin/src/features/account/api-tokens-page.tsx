import { useState } from "react";
import { Badge, Button, Group, ScrollArea, Stack, Table, Text, Title } from "@mantine/core";
import { useDelete, useGetIdentity, useList } from "@refinedev/core";
import { IconKey, IconPlus } from "@tabler/icons-react";
import type { ApiToken, User } from "../../../../api/types";
import { formatDateTime } from "../../lib/format";
import { ConfirmButton } from "../../ui/confirm-button";
import { FailureAlert } from "../../ui/failure-alert";
import { NewTokenDialog } from "./new-token-dialog";

const SCOPE_LABELS = { read: "Read only", write: "Read and write", admin: "Admin" } as const;

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
          API tokens
        </Title>
        <Button leftIcon={<IconPlus size={18} />} onClick={() => setCreating(true)}>
          New token
        </Button>
      </Group>
      <Text color="dimmed">
        Tokens let your booking form, upload scripts and other tools use Photodrop&apos;s API as you. Delete one the
        moment you no longer need it.
      </Text>
      {query.isError ? (
        <FailureAlert message="Failed to load your API tokens. Please try again later." mt={0} />
      ) : tokens.length === 0 && !query.isLoading ? (
        <Group spacing="xs" c="dimmed">
          <IconKey size={18} />
          <Text>No API tokens yet.</Text>
        </Group>
      ) : (
        <ScrollArea>
          <Table miw={760} verticalSpacing="sm" aria-label="API tokens">
            <thead>
              <tr>
                <th>Name</th>
                <th>Access</th>
                <th>Token</th>
                <th>Created</th>
                <th>Expires</th>
                <th>Last used</th>
                <th aria-label="Actions" />
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
          {SCOPE_LABELS[token.scope]}
        </Badge>
      </td>
      <td>
        <Text ff="monospace" size="sm">
          {token.prefix}…
        </Text>
      </td>
      <td>{formatDateTime(token.createdAt)}</td>
      <td>{token.expiresAt ? `${formatDateTime(token.expiresAt)}${expired ? " (expired)" : ""}` : "Never"}</td>
      <td>
        {token.lastUsedAt ? (
          <>
            {formatDateTime(token.lastUsedAt)}
            {token.lastUsedAddress && (
              <Text size="xs" color="dimmed">
                from {token.lastUsedAddress}
              </Text>
            )}
          </>
        ) : (
          "Never"
        )}
      </td>
      <td>
        <ConfirmButton
          label="Delete"
          title={`Delete the token “${token.name}”?`}
          confirmLabel="Delete token"
          color="red"
          variant="subtle"
          pending={mutation.isPending}
          onConfirm={() =>
            remove({ resource: "users/me/tokens", id: token.id, successNotification: false, errorNotification: false })
          }
        >
          <Text size="sm" mb="md">
            Whatever uses it stops working at once.
          </Text>
        </ConfirmButton>
      </td>
    </tr>
  );
}
