import { useEffect, useState } from "react";
import { Button } from "@mantine/core";
import { IconCheck, IconCopy } from "@tabler/icons-react";

const COPIED_FOR_MS = 2_000;

/** The clipboard API needs a secure context and permission; a selected textarea works almost everywhere. */
async function copyText(text: string): Promise<void> {
  try {
    if (!navigator.clipboard) throw new Error("no clipboard");
    await navigator.clipboard.writeText(text);
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    try {
      document.execCommand("copy");
    } finally {
      document.body.removeChild(area);
    }
  }
}

export function CopyLinkButton({ path }: { path: string }) {
  const [copied, setCopied] = useState(false);
  const link = new URL(path, window.location.origin).toString();
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_FOR_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const label = copied ? "Copied!" : "Copy download link to clipboard";
  return (
    <Button
      variant="default"
      title={label}
      aria-label={label}
      data-link={link}
      leftIcon={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
      onClick={() =>
        copyText(link)
          .then(() => setCopied(true))
          .catch((error) => console.error("Failed to copy the download link", error))
      }
    >
      {copied ? "Copied!" : "Copy link"}
    </Button>
  );
}
