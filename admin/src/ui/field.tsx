import type { ReactNode } from "react";
import { Text } from "@mantine/core";

/** A small uppercase label over its value, as the client and contact details show them. */
export function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" color="dimmed" weight={600} transform="uppercase">
        {label}
      </Text>
      <Text size="sm">{children}</Text>
    </div>
  );
}
