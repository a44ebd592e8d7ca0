import { useState } from "react";
import type { Attachment } from "../../../../api/types";
import { PHOTOS_PER_PAGE } from "./use-photo-page";

type Shown = { index: number } | { edge: "first" | "last" } | null;

interface LightboxPages {
  photos: Attachment[];
  page: number;
  pageCount: number;
  total: number;
  setPage: (page: number) => void;
  /** The photos are the page asked for (not the previous one kept on screen while it loads). */
  settled: boolean;
}

/**
 * Which photo the lightbox shows, through every photo of the project: past the end of the page
 * on screen it turns the page and goes on from its first (or, going back, its last) photo.
 */
export function useLightbox({ photos, page, pageCount, total, setPage, settled }: LightboxPages) {
  const [shown, setShown] = useState<Shown>(null);
  // A page the lightbox turned to has arrived: show its first or last photo.
  if (shown && "edge" in shown && settled && photos.length > 0) {
    setShown({ index: shown.edge === "first" ? 0 : photos.length - 1 });
  }
  const index = shown && "index" in shown && photos.length > 0 ? Math.min(shown.index, photos.length - 1) : null;
  const photo = index === null ? null : photos[index];
  const hasNext = index !== null && (index < photos.length - 1 || page < pageCount);
  const hasPrevious = index !== null && (index > 0 || page > 1);

  return {
    opened: shown !== null && (photos.length > 0 || "edge" in shown),
    photo,
    position: index === null ? null : (page - 1) * PHOTOS_PER_PAGE + index + 1,
    total,
    hasNext,
    hasPrevious,
    open: (at: number) => setShown({ index: at }),
    close: () => setShown(null),
    next: () => {
      if (index === null || !hasNext) return;
      if (index < photos.length - 1) return setShown({ index: index + 1 });
      setShown({ edge: "first" });
      setPage(page + 1);
    },
    previous: () => {
      if (index === null || !hasPrevious) return;
      if (index > 0) return setShown({ index: index - 1 });
      setShown({ edge: "last" });
      setPage(page - 1);
    },
  };
}

export type Lightbox = ReturnType<typeof useLightbox>;
