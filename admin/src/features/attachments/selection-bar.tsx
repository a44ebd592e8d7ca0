import { Button, Group, Text } from "@mantine/core";

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
        {selected} of {total} selected
      </Text>
      <Group spacing="xs">
        <Button size="xs" variant="light" onClick={onSelectAll}>
          Select All
        </Button>
        <Button size="xs" variant="light" onClick={onDeselectAll}>
          Deselect All
        </Button>
        <Button size="xs" color="red" disabled={selected === 0} onClick={onDelete}>
          Delete Selected ({selected})
        </Button>
      </Group>
    </Group>
  );
}
