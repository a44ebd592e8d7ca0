import { Stack, Switch } from "@mantine/core";
import { t } from "../../i18n";

export interface DownloadChoices {
  allowDownloads: boolean;
  offerWebSize: boolean;
}

interface Props {
  value: DownloadChoices;
  onChange: (value: DownloadChoices) => void;
}

/** What the client may download from the delivery page: the originals, and the web size beside them. */
export function DownloadChoicesFields({ value, onChange }: Props) {
  return (
    <Stack spacing="xs">
      <Switch
        label={t("delivery.allowDownloads")}
        description={t("delivery.offAViewOnlyProofingGallery")}
        checked={value.allowDownloads}
        onChange={(event) => onChange({ ...value, allowDownloads: event.currentTarget.checked })}
      />
      <Switch
        label={t("delivery.offerWebSizeDownloads")}
        description={t("delivery.screenSizedJpegsBesideTheOriginals")}
        checked={value.offerWebSize}
        disabled={!value.allowDownloads}
        onChange={(event) => onChange({ ...value, offerWebSize: event.currentTarget.checked })}
      />
    </Stack>
  );
}
