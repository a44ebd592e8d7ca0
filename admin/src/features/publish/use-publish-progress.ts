import { useCallback, useRef, useState } from "react";
import { useSubscription, type LiveEvent } from "@refinedev/core";
import { projectChannel } from "../../providers/live-provider";
import { t } from "../../i18n";

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
      return { ...state, active: false, error: data.error || t("publish.failed") };
    default:
      return state;
  }
}

const IDLE: PublishProgress = { active: false, progress: 0, error: null, connectionError: null };

/**
 * A project's publish progress from the live provider's `projects/<id>` channel. `shownStatus` is
 * the status the page shows now: a build shown as running may have ended before the subscription
 * began, so then `refetch` runs once subscribed. The project record itself refreshes through its
 * own live subscription. The channel is fixed for the component's life (key the page by project).
 */
export function usePublishProgress(
  projectId: number | undefined,
  refetch: () => void,
  shownStatus: string | undefined,
) {
  const [state, setState] = useState<PublishProgress>(IDLE);
  const update = useCallback(
    (change: Partial<PublishProgress>) => setState((current) => ({ ...current, ...change })),
    [],
  );
  const latest = useRef({ refetch, shownStatus });
  latest.current = { refetch, shownStatus };

  const onLiveEvent = useRef((event: LiveEvent) => {
    const payload = (event.payload ?? {}) as PublishEventData & { error?: string };
    if (event.type === "connection") return update({ connectionError: payload.error ?? null });
    if (event.type === "subscribed") {
      update({ connectionError: null });
      if (latest.current.shownStatus === "publishing") latest.current.refetch();
      return;
    }
    setState((current) => applyPublishEvent(current, event.type, payload));
  });
  useSubscription({
    channel: projectChannel(projectId ?? 0),
    enabled: projectId !== undefined,
    onLiveEvent: (event) => onLiveEvent.current(event),
  });

  return { ...state, reset: update };
}
