import { useEffect, useState } from "react";
import { Alert, Button, Code, Group, Stack } from "@mantine/core";
import { IconCheck, IconCopy } from "@tabler/icons-react";
import { copyText } from "../lib/copy-text";
import { t } from "../i18n";

/** A secret the server answers only once (an API token, a signing secret): the warning, the value, Copy and Done. */
export function ShownOnceSecret({
  secret,
  label,
  copyLabel,
  onDone,
}: {
  secret: string;
  /** Names the value for screen readers, e.g. 'API token'. */
  label: string;
  copyLabel: string;
  onDone: () => void;
}) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 1000);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <Stack spacing="sm">
      <Alert color="yellow">{t("ui.copyItNowItIsNot")}</Alert>
      <Code block aria-label={label} sx={{ wordBreak: "break-all", whiteSpace: "pre-wrap" }}>
        {secret}
      </Code>
      <Group position="right">
        <Button
          variant="light"
          leftIcon={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
          onClick={() => void copyText(secret).then(() => setCopied(true))}
        >
          {copied ? t("ui.copied") : copyLabel}
        </Button>
        <Button onClick={onDone}>{t("ui.done")}</Button>
      </Group>
    </Stack>
  );
}
