import { useMediaQuery } from "@mantine/hooks";

/** Below 768 px: lists become cards, header actions a menu, the project's photos come first. */
export const PHONE_QUERY = "(max-width: 767.98px)";

/** Whether the screen is phone-sized now, read at the first render so nothing flashes as a table. */
export function usePhone(): boolean {
  return useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
}
