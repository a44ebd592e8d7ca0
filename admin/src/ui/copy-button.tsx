import { useEffect, useState } from "react";
import { Button } from "@mantine/core";
import { IconCheck, IconCopy } from "@tabler/icons-react";
import { copyText } from "../lib/copy-text";
import { t } from "../i18n";

/** Copies `text`; says Copied for a second after. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 1000);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <Button
      variant="light"
      leftIcon={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
      onClick={() => void copyText(text).then(() => setCopied(true))}
    >
      {copied ? t("ui.copied") : label}
    </Button>
  );
}
