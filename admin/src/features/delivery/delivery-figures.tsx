import { SimpleGrid, Stack, Text } from "@mantine/core";
import type { DeliverySettings } from "../../../../api/types";
import { formatDateTime } from "../../lib/format";
import { t } from "../../i18n";

function Figure({ label, value, small = false }: { label: string; value: string; small?: boolean }) {
  return (
    <Stack spacing={0} role="group" aria-label={label}>
      <Text size="xs" color="dimmed" weight={600} transform="uppercase">
        {label}
      </Text>
      <Text size={small ? "sm" : "lg"} weight={700}>
        {value}
      </Text>
    </Stack>
  );
}

/** Views, downloads and the last download; they move live as the client uses the page. */
export function DeliveryFigures({ delivery }: { delivery: DeliverySettings }) {
  return (
    <SimpleGrid cols={3} spacing="xs">
      <Figure label={t("delivery.views")} value={String(delivery.views)} />
      <Figure label={t("delivery.downloads")} value={String(delivery.downloads)} />
      <Figure
        label={t("delivery.lastDownload")}
        value={delivery.lastDownloadAt ? formatDateTime(delivery.lastDownloadAt) : t("delivery.never")}
      />
    </SimpleGrid>
  );
}
