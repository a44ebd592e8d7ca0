import { useSyncExternalStore } from "react";

/** Whether the phone-sized navigation (below 768 px, behind the header's burger) is open. */
let opened = false;
const listeners = new Set<() => void>();

function set(next: boolean) {
  if (next === opened) return;
  opened = next;
  for (const listener of listeners) listener();
}

export const navigationToggle = {
  toggle: () => set(!opened),
  close: () => set(false),
};

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export function useNavigationOpened(): boolean {
  return useSyncExternalStore(subscribe, () => opened);
}
