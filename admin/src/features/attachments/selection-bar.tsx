import { Button, Group, Text } from "@mantine/core";
import { t } from "../../i18n";

interface SelectionBarProps {
  selected: number;
  total: number;
  onSelectAll: () => void;
  onDeselectAll: () => void;
  onDelete: () => void;
}

/** Selection mode's counts and actions; 'Select All' means every photo of the project, drawn or not. */
export function SelectionBar({ selected, total, onSelectAll, onDeselectAll, onDelete }: SelectionBarProps) {
  return (
    <Group position="apart" spacing="xs">
      <Text size="sm" aria-live="polite">
        {t("attachments.ofSelected", { selected, total })}
      </Text>
      <Group spacing="xs">
        <Button size="xs" variant="light" onClick={onSelectAll}>
          {t("attachments.selectAll")}
        </Button>
        <Button size="xs" variant="light" onClick={onDeselectAll}>
          {t("attachments.deselectAll")}
        </Button>
        <Button size="xs" color="red" disabled={selected === 0} onClick={onDelete}>
          {t("attachments.deleteSelected", { selected })}
        </Button>
      </Group>
    </Group>
  );
}
