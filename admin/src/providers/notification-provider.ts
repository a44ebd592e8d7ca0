import type { NotificationProvider } from "@refinedev/core";
import { useNotificationProvider } from "@refinedev/mantine";

/**
 * Mantine's notifications, minus every error: the spec shows API failures to nobody (section 8)
 * and only logs failed saves, deletes and publishes. Where a failure is shown (login, uploads,
 * loading a page) the screen shows it itself, in its own words.
 */
export function useAppNotificationProvider(): NotificationProvider {
  const mantine = useNotificationProvider();
  return {
    ...mantine,
    open: (params) => {
      if (params.type === "error") {
        console.error(params.message, params.description ?? "");
        return;
      }
      mantine.open?.(params);
    },
  };
}
