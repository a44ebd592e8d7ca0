import type { NotificationProvider } from "@refinedev/core";
import { hideNotification, showNotification } from "@mantine/notifications";
import { IconCheck } from "@tabler/icons-react";

/**
 * Mantine's notifications, minus every error: the spec shows API failures to nobody (section 8)
 * and only logs failed saves, deletes and publishes. Where a failure is shown (login, uploads,
 * loading a page) the screen shows it itself, in its own words. No mutation is undoable here, so
 * Refine's progress notifications never occur. Written here rather than taken from
 * @refinedev/mantine so that package stays out of the first load.
 */
const notificationProvider: NotificationProvider = {
  open: ({ key, message, description, type }) => {
    if (type === "error") {
      console.error(message, description ?? "");
      return;
    }
    showNotification({
      id: key,
      color: "primary",
      icon: <IconCheck size={18} />,
      message,
      title: description,
      autoClose: 5000,
    });
  },
  close: (key) => hideNotification(key),
};

export const useAppNotificationProvider = (): NotificationProvider => notificationProvider;
