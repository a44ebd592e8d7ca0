import { useState } from "react";
import { Button, Code, Group, Modal, Select, Stack, Text, TextInput } from "@mantine/core";
import { useCreate, type HttpError } from "@refinedev/core";
import type { ApiTokenRequest, ApiTokenScope, CreatedApiToken } from "../../../../api/types";
import { FailureAlert } from "../../ui/failure-alert";
import { ShownOnceSecret } from "../../ui/shown-once-secret";
import { EXPIRY_CHOICES, expiryFrom } from "./token-expiry";

const SCOPES: Array<{ value: ApiTokenScope; label: string }> = [
  { value: "read", label: "Read only" },
  { value: "write", label: "Read and write" },
  { value: "admin", label: "Admin (read, write and the admin screens)" },
];

/** The form for a new token, then the token itself, shown this once. Mounted only while open: each opening starts empty. */
export function NewTokenDialog({ onClose, isAdmin }: { onClose: () => void; isAdmin: boolean }) {
  const [name, setName] = useState("");
  const [scope, setScope] = useState<ApiTokenScope>("read");
  const [expiry, setExpiry] = useState("90");
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  const [error, setError] = useState<HttpError | null>(null);
  const { mutate, mutation } = useCreate<CreatedApiToken, HttpError, ApiTokenRequest>();

  const submit = () => {
    setError(null);
    mutate(
      {
        resource: "users/me/tokens",
        values: { name: name.trim(), scope, expiresAt: expiryFrom(expiry) },
        successNotification: false,
        errorNotification: false,
      },
      { onSuccess: (answer) => setCreated(answer.data), onError: setError },
    );
  };

  return (
    <Modal opened onClose={onClose} title={created ? "Your new API token" : "New API token"} centered>
      {created ? (
        <ShownOnceSecret secret={created.token} label="API token" copyLabel="Copy token" onDone={onClose} />
      ) : (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <Stack spacing="sm">
            <TextInput
              label="Name"
              description="What uses it, e.g. Booking form"
              required
              maxLength={100}
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              error={typeof error?.errors?.name === "string" ? error.errors.name : undefined}
              data-autofocus
            />
            <Select
              label="Access"
              data={SCOPES.filter((s) => isAdmin || s.value !== "admin")}
              value={scope}
              onChange={(value) => setScope((value as ApiTokenScope | null) ?? "read")}
            />
            <Select
              label="Expires"
              data={EXPIRY_CHOICES.map(({ value, label }) => ({ value, label }))}
              value={expiry}
              onChange={(value) => setExpiry(value ?? "90")}
            />
            <Text size="sm" color="dimmed">
              Scripts send it as <Code>Authorization: Bearer pd_…</Code>. It can do what you can, within its access.
            </Text>
          </Stack>
          {error && !error.errors?.name && <FailureAlert message={error.message} />}
          <Group position="right" mt="lg">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={mutation.isPending} disabled={name.trim() === ""}>
              Create token
            </Button>
          </Group>
        </form>
      )}
    </Modal>
  );
}
