import { Alert, Button, Code, CopyButton, Group, Stack } from "@mantine/core";
import { IconCheck, IconCopy } from "@tabler/icons-react";

/** A webhook's signing secret, shown this once after creating or rotating it. */
export function SecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <Stack spacing="sm">
      <Alert color="yellow">Copy it now: it is not shown again.</Alert>
      <Code block aria-label="Signing secret" sx={{ wordBreak: "break-all", whiteSpace: "pre-wrap" }}>
        {secret}
      </Code>
      <Group position="right">
        <CopyButton value={secret}>
          {({ copied, copy }) => (
            <Button variant="light" leftIcon={copied ? <IconCheck size={16} /> : <IconCopy size={16} />} onClick={copy}>
              {copied ? "Copied" : "Copy secret"}
            </Button>
          )}
        </CopyButton>
        <Button onClick={onDone}>Done</Button>
      </Group>
    </Stack>
  );
}
