import { Alert, Button, Code, Group, Stack } from "@mantine/core";
import { CopyButton } from "./copy-button";
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
  return (
    <Stack spacing="sm">
      <Alert color="yellow">{t("ui.copyItNowItIsNot")}</Alert>
      <Code block aria-label={label} sx={{ wordBreak: "break-all", whiteSpace: "pre-wrap" }}>
        {secret}
      </Code>
      <Group position="right">
        <CopyButton text={secret} label={copyLabel} />
        <Button onClick={onDone}>{t("ui.done")}</Button>
      </Group>
    </Stack>
  );
}
