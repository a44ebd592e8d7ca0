import { SegmentedControl } from "@mantine/core";

export type PhotoView = "grid" | "list";

const VIEWS = [
  { value: "grid", label: "Grid" },
  { value: "list", label: "List" },
];

/** Thumbnails (the default) or the spec's rows. */
export function PhotoViewSwitch({ view, onChange }: { view: PhotoView; onChange: (view: PhotoView) => void }) {
  return (
    <SegmentedControl
      size="xs"
      data={VIEWS}
      value={view}
      onChange={(value) => onChange(value as PhotoView)}
      aria-label="Show photos as"
    />
  );
}
