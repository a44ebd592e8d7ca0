import type { NotificationProvider } from "@refinedev/core";
import { hideNotification, showNotification } from "@mantine/notifications";
import { IconAlertCircle, IconCheck } from "@tabler/icons-react";
import { t } from "../i18n";

/** Refine's auth failures: the sign-in, sign-up and password screens show these in place themselves. */
const SHOWN_BY_AUTH_SCREENS = new Set([
  "login-error",
  "register-error",
  "forgot-password-error",
  "update-password-error",
]);

/**
 * Mantine's notifications: a short confirmation of every change that worked, and a failure where
 * no dialog or card is there to show it (an action from a list's menu, say). Dialogs show their
 * own failures and ask for none here. No mutation is undoable, so Refine's progress notifications
 * never occur. Written here rather than taken from @refinedev/mantine so that package stays out
 * of the first load.
 */
const notificationProvider: NotificationProvider = {
  open: ({ key, message, description, type }) => {
    const failed = type === "error";
    if (failed) console.error(message, description ?? "");
    if (failed && key && SHOWN_BY_AUTH_SCREENS.has(key)) return;
    showNotification({
      id: key,
      color: failed ? "red" : "primary",
      icon: failed ? <IconAlertCircle size={18} /> : <IconCheck size={18} />,
      title: description ? message : undefined,
      message: description ?? message,
      autoClose: failed ? 10_000 : 4_000,
      // Mantine's close button is an icon alone: without a name a screen reader says just "button".
      closeButtonProps: { "aria-label": t("app.closeNotification"), title: t("app.closeNotification") },
    });
  },
  close: (key) => hideNotification(key),
};

export const useAppNotificationProvider = (): NotificationProvider => notificationProvider;
