import { Group, Text, type MantineSize } from "@mantine/core";

/** A dashboard figure: its label to the left, dimmed, and its value to the right. */
export function StatLine({ label, value, size = "sm" }: { label: string; value: string; size?: MantineSize }) {
  return (
    <Group position="apart" spacing={size === "xs" ? "xs" : "md"}>
      <Text size={size} color="dimmed">
        {label}
      </Text>
      <Text size={size} weight={600}>
        {value}
      </Text>
    </Group>
  );
}
