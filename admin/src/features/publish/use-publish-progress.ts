import { useCallback, useEffect, useRef, useState } from "react";
import { eventsSocket } from "../../lib/events-socket";

export interface PublishProgress {
  /** A build announced live that has not ended yet. */
  active: boolean;
  progress: number;
  error: string | null;
  /** 'Authentication required', 'Failed to authenticate', 'Connection lost' or 'Connection failed'. */
  connectionError: string | null;
}

export interface PublishEventData {
  progress?: number;
  error?: string;
}

/** Spec section 4: how each live publish event moves the progress shown on the project page. */
export function applyPublishEvent(state: PublishProgress, type: string, data: PublishEventData): PublishProgress {
  switch (type) {
    case "publish_started":
      return { ...state, active: true, progress: data.progress ?? 0, error: null };
    case "publish_progress":
      return { ...state, active: true, progress: data.progress ?? state.progress };
    case "publish_completed":
      return { ...state, active: false, progress: 100 };
    case "publish_failed":
      return { ...state, active: false, error: data.error || "Failed" };
    default:
      return state;
  }
}

const AUTH_ERRORS = new Set(["Authentication required", "Failed to authenticate"]);
const IDLE: PublishProgress = { active: false, progress: 0, error: null, connectionError: null };

/**
 * Follows a project's publish events on the shared socket; `refetch` runs when the project may have
 * changed. `shownStatus` is the status the page shows now.
 */
export function usePublishProgress(projectId: number | undefined, refetch: () => void, shownStatus: string | undefined) {
  const [state, setState] = useState<PublishProgress>(IDLE);
  const [followed, setFollowed] = useState(projectId);
  if (followed !== projectId) {
    setFollowed(projectId);
    setState(IDLE);
  }
  const refetchRef = useRef(refetch);
  refetchRef.current = refetch;
  const shownStatusRef = useRef(shownStatus);
  shownStatusRef.current = shownStatus;

  useEffect(() => {
    if (!projectId) return;
    const update = (change: Partial<PublishProgress>) => setState((current) => ({ ...current, ...change }));
    const stopFrames = eventsSocket.onFrame(({ event, data }) => {
      if (event === "error") {
        const message = String(data.message ?? "");
        if (AUTH_ERRORS.has(message)) update({ connectionError: message });
        return;
      }
      if (Number(data.projectId) !== projectId) return;
      if (event === "subscribed") {
        update({ connectionError: null });
        // A build shown as running may have ended before we subscribed: only the project tells.
        if (shownStatusRef.current === "publishing") refetchRef.current();
        return;
      }
      if (event !== "publish-event") return;
      const type = String(data.type);
      setState((current) => applyPublishEvent(current, type, (data.data ?? {}) as PublishEventData));
      if (type === "publish_completed" || type === "publish_failed") refetchRef.current();
    });
    const stopState = eventsSocket.onState((connection) => {
      if (connection === "lost") update({ connectionError: "Connection lost" });
      else if (connection === "failed") update({ connectionError: "Connection failed" });
    });
    const unsubscribe = eventsSocket.subscribeProject(projectId);
    return () => {
      unsubscribe();
      stopState();
      stopFrames();
    };
  }, [projectId]);

  const reset = useCallback((change: Partial<PublishProgress>) => setState((current) => ({ ...current, ...change })), []);
  return { ...state, reset };
}
