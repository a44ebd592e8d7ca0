import { useEffect, useState } from "react";
import { Button } from "@mantine/core";
import { IconCheck, IconCopy } from "@tabler/icons-react";
import { absoluteUrl, copyText } from "../../lib/copy-text";
import { t } from "../../i18n";

const COPIED_FOR_MS = 2_000;

export function CopyLinkButton({ path }: { path: string }) {
  const [copied, setCopied] = useState(false);
  const link = absoluteUrl(path);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_FOR_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  // The spec's tooltip; the name stays the visible text (axe: label-content-name-mismatch).
  const label = copied ? t("publish.copied") : t("publish.copyDownloadLink");
  return (
    <Button
      variant="default"
      title={label}
      data-link={link}
      leftIcon={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
      onClick={() =>
        copyText(link)
          .then(() => setCopied(true))
          .catch((error) => console.error("Failed to copy the download link", error))
      }
    >
      {copied ? t("publish.copied") : t("publish.copyLink")}
    </Button>
  );
}
