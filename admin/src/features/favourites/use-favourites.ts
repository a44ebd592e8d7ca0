import { useRef } from "react";
import { useList, useOne, useSubscription } from "@refinedev/core";
import type { FavouriteSelection, FavouriteVisitor } from "../../../../api/favourites";

const mentions = (ids: unknown, projectId: number) =>
  Array.isArray(ids) && ids.some((id) => String(id) === String(projectId));

/**
 * Calls `onChange` when the project's favourites change (a visitor's list, comment or send) or the
 * project does (a deleted photo leaves every list).
 */
function useFavouriteChanges(projectId: number, onChange: () => void): void {
  const latest = useRef(onChange);
  latest.current = onChange;
  const onLiveEvent = (event: { payload?: { ids?: unknown } }) => {
    if (mentions(event.payload?.ids, projectId)) latest.current();
  };
  useSubscription({ channel: "resources/favourites", types: ["updated"], onLiveEvent });
  useSubscription({ channel: "resources/projects", types: ["updated"], onLiveEvent });
}

/** GET /projects/:id/favourites: every visitor of the delivery page, the latest change first; live. */
export function useFavouriteVisitors(projectId: number) {
  const { result, query } = useList<FavouriteVisitor>({
    resource: `projects/${projectId}/favourites`,
    pagination: { mode: "off" },
    liveMode: "off",
    errorNotification: false,
  });
  useFavouriteChanges(projectId, () => void query.refetch());
  return { visitors: result.data ?? [], loading: query.isLoading, failed: query.isError };
}

/** GET /projects/:id/favourites/:visitorId: one visitor's picks with their comments; live. */
export function useFavouriteSelection(projectId: number, visitorId: number) {
  const { result, query } = useOne<FavouriteSelection>({
    resource: `projects/${projectId}/favourites`,
    id: visitorId,
    liveMode: "off",
    errorNotification: false,
  });
  useFavouriteChanges(projectId, () => void query.refetch());
  return { selection: result, loading: query.isLoading, failed: query.isError };
}
