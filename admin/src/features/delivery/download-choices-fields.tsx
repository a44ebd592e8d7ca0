import { Stack, Switch } from "@mantine/core";

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
        label="Allow downloads"
        description="Off: a view-only proofing gallery. Your client sees the photos but can download no photo and no ZIP."
        checked={value.allowDownloads}
        onChange={(event) => onChange({ ...value, allowDownloads: event.currentTarget.checked })}
      />
      <Switch
        label="Offer web-size downloads"
        description="Screen-sized JPEGs beside the originals, one by one and as a ZIP. The ZIP is made when the project is published: turned on later, it comes with the next publish."
        checked={value.offerWebSize}
        disabled={!value.allowDownloads}
        onChange={(event) => onChange({ ...value, offerWebSize: event.currentTarget.checked })}
      />
    </Stack>
  );
}
