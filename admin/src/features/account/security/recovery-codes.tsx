import { Alert, Button, Code, Group, SimpleGrid, Stack, Text } from "@mantine/core";
import { IconDownload } from "@tabler/icons-react";
import { CopyButton } from "../../../ui/copy-button";
import { t } from "../../../i18n";

/** The codes as the downloaded file holds them: what they are, then one a line. */
function recoveryFileText(codes: string[]): string {
  return [t("security.recoveryFileHeading", { host: window.location.host }), "", ...codes, ""].join("\n");
}

function download(codes: string[]) {
  const url = URL.createObjectURL(new Blob([recoveryFileText(codes)], { type: "text/plain" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = "photodrop-recovery-codes.txt";
  document.body.appendChild(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

/** The ten recovery codes, shown this once (as `ShownOnceSecret` shows a token): copy, download as .txt, Done. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <Stack spacing="sm">
      <Alert color="yellow">{t("security.recoveryCodesOnce")}</Alert>
      <Text size="sm">{t("security.recoveryCodesHow")}</Text>
      <SimpleGrid cols={2} spacing="xs" aria-label={t("security.recoveryCodes")} role="list">
        {codes.map((code) => (
          <Code key={code} role="listitem" sx={{ fontSize: 15, textAlign: "center" }}>
            {code}
          </Code>
        ))}
      </SimpleGrid>
      <Group position="right" spacing="xs">
        <CopyButton text={codes.join("\n")} label={t("security.copyCodes")} />
        <Button variant="light" leftIcon={<IconDownload size={16} />} onClick={() => download(codes)}>
          {t("security.downloadCodes")}
        </Button>
        <Button onClick={onDone}>{t("security.done")}</Button>
      </Group>
    </Stack>
  );
}
