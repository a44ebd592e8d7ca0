import { useState } from "react";
import { useList, type CrudFilter, type CrudSort } from "@refinedev/core";
import type { Attachment } from "../../../../api/types";

export const PHOTOS_PER_PAGE = 60;

/** None: the server answers a project's photos in the project's photo order. */
const PROJECT_ORDER: CrudSort[] = [];

/** GET /api/attachments?projectId=, a page at a time in the project's photo order. */
const photoList = (projectId: number, page: number) => ({
  resource: "attachments",
  filters: [{ field: "projectId", operator: "eq", value: projectId }] as CrudFilter[],
  sorters: PROJECT_ORDER,
  pagination: { currentPage: page, pageSize: PHOTOS_PER_PAGE, mode: "server" as const },
  errorNotification: false as const,
});

/**
 * A project's photos, a page at a time (never from the project record, which holds only its first
 * ones), and which page is shown. The page on screen stays while the next loads; a page that no
 * longer exists (photos deleted) moves to the last one. Called by the project's page beside its
 * record, so both requests start together.
 */
export function usePhotoPages(projectId: number | undefined) {
  const [page, setPage] = useState(1);
  const { result, query } = useList<Attachment>({
    ...photoList(projectId ?? 0, page),
    queryOptions: {
      enabled: projectId !== undefined,
      placeholderData: (previous) => previous,
      // Live events refresh only the page on screen: any other page seen before may have changed
      // since (deleted, renamed, 'Select All' + delete), so it is asked again when shown.
      staleTime: 0,
    },
  });
  const total = result.total ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / PHOTOS_PER_PAGE));
  const pastTheEnd = query.isSuccess && !query.isPlaceholderData && page > pageCount;
  // Adjusted while rendering (React's pattern for state that follows data), not in an effect.
  if (pastTheEnd) setPage(pageCount);

  return {
    photos: result.data,
    total,
    page,
    setPage,
    pageCount,
    loading: query.isLoading,
    settled: query.isSuccess && !query.isPlaceholderData,
    error: query.isError ? query.error : null,
  };
}

export type PhotoPages = ReturnType<typeof usePhotoPages>;
