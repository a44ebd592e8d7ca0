import { useRef } from "react";
import { useSubscription } from "@refinedev/core";

/**
 * Calls `onChange` whenever the server announces a change of this project: its delivery
 * activity and reminder setting ride on the project's own announcement (server/activity).
 */
export function useProjectChanges(projectId: number, onChange: () => void): void {
  const latest = useRef(onChange);
  latest.current = onChange;
  useSubscription({
    channel: "resources/projects",
    types: ["updated"],
    onLiveEvent: (event) => {
      const ids = (event.payload?.ids ?? []) as Array<string | number>;
      if (ids.some((id) => String(id) === String(projectId))) latest.current();
    },
  });
}
