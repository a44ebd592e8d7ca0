import { useState } from "react";
import { Group, NumberInput, Stack, Switch, Text } from "@mantine/core";
import { useCustom, useCustomMutation } from "@refinedev/core";
import type { ReminderSettings } from "../../../../api/types";
import { useProjectChanges } from "./use-project-changes";
import { t } from "../../i18n";

const DEFAULT_DAYS = 3;
const quiet = { successNotification: false as const, errorNotification: false as const };

/** 'Remind {n} days before the link expires': on with n days, or off (days null). */
export function ReminderSetting({ projectId, hasExpiry }: { projectId: number; hasExpiry: boolean }) {
  const url = `/projects/${projectId}/reminders`;
  const { result, query } = useCustom<ReminderSettings>({ url, method: "get", errorNotification: false });
  useProjectChanges(projectId, () => void query.refetch());
  const { mutateAsync: save, mutation } = useCustomMutation<ReminderSettings>();
  const [error, setError] = useState<string | null>(null);
  const saved = result.data as ReminderSettings | undefined;
  // Shown while the setting loads and after it is turned off: the number it would use.
  const [lastDays, setLastDays] = useState(DEFAULT_DAYS);
  const days = saved?.days ?? null;
  const shownDays = days ?? lastDays;

  const change = (next: number | null) => {
    setError(null);
    if (next !== null) setLastDays(next);
    save({ url, method: "put", values: { days: next }, ...quiet }).then(
      () => query.refetch(),
      (err: { message?: string }) => setError(err.message ?? t("sending.reminderNotSaved")),
    );
  };

  return (
    <Stack spacing={4}>
      <Group spacing="sm" noWrap>
        <Switch
          label={t("sending.remindBeforeExpiry", { count: shownDays })}
          checked={days !== null}
          disabled={!saved || mutation.isPending}
          onChange={(event) => change(event.currentTarget.checked ? shownDays : null)}
        />
        {days !== null && (
          // Saved when the field is left (or Enter pressed), not at every keystroke; a new saved value resets it.
          <NumberInput
            key={days}
            aria-label={t("sending.daysBeforeTheLinkExpires")}
            min={1}
            max={30}
            size="xs"
            w={70}
            defaultValue={days}
            disabled={mutation.isPending}
            onKeyDown={(event) => event.key === "Enter" && event.currentTarget.blur()}
            onBlur={(event) => {
              const value = Number(event.currentTarget.value);
              if (Number.isInteger(value) && value >= 1 && value <= 30 && value !== days) change(value);
            }}
          />
        )}
      </Group>
      <Text size="xs" color={error ? "red" : "dimmed"}>
        {error ?? (hasExpiry ? t("sending.recipientsWhoHaveNotDownloadedGet") : t("sending.remindersGoOutOnlyWhenThe"))}
      </Text>
    </Stack>
  );
}
