import type { ReactNode } from "react";
import { Card, Group, Skeleton, Text, ThemeIcon, type MantineColor } from "@mantine/core";

interface StatCardProps {
  title: string;
  value: string;
  icon: ReactNode;
  color: MantineColor;
  loading: boolean;
}

export function StatCard({ title, value, icon, color, loading }: StatCardProps) {
  return (
    <Card withBorder shadow="xs" p="lg" radius="md" h="100%">
      <Group position="apart" noWrap>
        <div>
          <Text size="sm" color="dimmed" weight={600}>
            {title}
          </Text>
          {loading ? (
            <Skeleton height={32} width={80} mt={6} />
          ) : (
            <Text size={28} weight={700} mt={2}>
              {value}
            </Text>
          )}
        </div>
        <ThemeIcon size={44} radius="md" variant="light" color={color}>
          {icon}
        </ThemeIcon>
      </Group>
    </Card>
  );
}
