import { SegmentedControl } from "@mantine/core";
import { t } from "../../i18n";

export type PhotoView = "grid" | "list";

const VIEWS = [
  { value: "grid", label: "attachments.grid" },
  { value: "list", label: "attachments.list" },
];

/** Thumbnails (the default) or the spec's rows. */
export function PhotoViewSwitch({ view, onChange }: { view: PhotoView; onChange: (view: PhotoView) => void }) {
  return (
    <SegmentedControl
      size="xs"
      data={VIEWS.map(({ value, label }) => ({ value, label: t(label) }))}
      value={view}
      onChange={(value) => onChange(value as PhotoView)}
      aria-label={t("attachments.showPhotosAs")}
    />
  );
}
