import { useState } from "react";
import { ActionIcon, Divider, Indicator, Popover, Stack, Switch, Text } from "@mantine/core";
import { useCustom, useCustomMutation } from "@refinedev/core";
import { IconBell } from "@tabler/icons-react";
import type { NotificationSettings } from "../../../../api/types";
import { SelectionNoticeList, useSelectionNotices } from "./selection-notices";
import { t } from "../../i18n";

const URL = "/users/me/notifications";

/**
 * The bell: the selections clients sent (a dot counts those not seen yet), and the signed-in staff
 * member's own delivery mails, on (default) or off.
 */
export function NotificationSettingsButton() {
  const [opened, setOpened] = useState(false);
  const { result, query } = useCustom<NotificationSettings>({
    url: URL,
    method: "get",
    queryOptions: { enabled: opened },
    errorNotification: false,
  });
  const { mutateAsync: save, mutation } = useCustomMutation<NotificationSettings>();
  const [error, setError] = useState<string | null>(null);
  const settings = result.data as NotificationSettings | undefined;
  const { notices, unseen, markSeen } = useSelectionNotices();
  const toggle = (open: boolean) => {
    markSeen();
    setOpened(open);
  };

  return (
    <Indicator label={unseen} size={16} color="red" disabled={unseen === 0} offset={4} withBorder>
      <Popover opened={opened} onChange={toggle} position="bottom-end" width={320} withArrow shadow="md">
        <Popover.Target>
          <ActionIcon
            size="lg"
            variant="light"
            aria-label={unseen ? t("sending.notificationSettingsNew", { unseen }) : t("sending.notificationSettings")}
            onClick={() => toggle(!opened)}
          >
            <IconBell size={20} />
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown>
          <Stack spacing="xs">
            <Text size="sm" weight={600}>
              {t("sending.selectionsReceived")}
            </Text>
            <SelectionNoticeList notices={notices} onOpen={() => toggle(false)} />
            <Divider />
            <Text size="sm" weight={600}>
              {t("sending.notificationSettings")}
            </Text>
            <Switch
              label={t("sending.eMailMeWhenAClient")}
              checked={settings?.deliveryMail ?? true}
              disabled={!settings || mutation.isPending}
              onChange={(event) => {
                setError(null);
                save({
                  url: URL,
                  method: "put",
                  values: { deliveryMail: event.currentTarget.checked },
                  successNotification: false,
                  errorNotification: false,
                }).then(
                  () => query.refetch(),
                  (err: { message?: string }) => setError(err.message ?? t("sending.couldNotSave")),
                );
              }}
            />
            <Text size="xs" color={error ? "red" : "dimmed"}>
              {error ?? t("sending.whenNobodySentAGalleryThese")}
            </Text>
          </Stack>
        </Popover.Dropdown>
      </Popover>
    </Indicator>
  );
}
