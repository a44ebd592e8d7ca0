import { useEffect, useState } from "react";
import { Button } from "@mantine/core";
import { IconCheck, IconExternalLink, IconLink } from "@tabler/icons-react";
import { copyText } from "../../lib/copy-text";
import { useClientLink } from "./use-client-link";
import { t } from "../../i18n";

const COPIED_FOR_MS = 2_000;

/** 'Copy page link' (the delivery page's link as the client gets it) and 'Open delivery page', to sit beside the ZIP's copy-link button. */
export function DeliveryLinkButtons({ deliveryUrl }: { deliveryUrl: string }) {
  const [copied, setCopied] = useState(false);
  const link = useClientLink()(deliveryUrl);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_FOR_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  return (
    <>
      <Button
        variant="default"
        data-link={link}
        leftIcon={copied ? <IconCheck size={16} /> : <IconLink size={16} />}
        onClick={() =>
          copyText(link)
            .then(() => setCopied(true))
            .catch((error) => console.error("Failed to copy the delivery page link", error))
        }
      >
        {copied ? t("delivery.copied") : t("delivery.copyPageLink")}
      </Button>
      <Button
        component="a"
        href={link}
        target="_blank"
        rel="noopener"
        variant="default"
        leftIcon={<IconExternalLink size={16} />}
      >
        {t("delivery.openDeliveryPage")}
      </Button>
    </>
  );
}
