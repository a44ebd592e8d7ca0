import type { NotificationProvider } from "@refinedev/core";
import { useNotificationProvider } from "@refinedev/mantine";

// The login screen shows these failures in red beside the form; a toast would say it twice.
const SHOWN_ON_LOGIN_SCREEN = new Set(["login-error", "register-error", "forgot-password-error", "update-password-error"]);

/** Mantine's notifications, minus the ones the login screen already shows inline. */
export function useAppNotificationProvider(): NotificationProvider {
  const mantine = useNotificationProvider();
  return {
    ...mantine,
    open: (params) => {
      if (params.key && SHOWN_ON_LOGIN_SCREEN.has(params.key)) return;
      mantine.open?.(params);
    },
  };
}
