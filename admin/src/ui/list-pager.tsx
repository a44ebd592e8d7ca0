import { useEffect } from "react";
import { Group } from "@mantine/core";
import { Pager } from "./pager";

interface ListPagerProps {
  currentPage: number;
  pageCount: number;
  setCurrentPage: (page: number) => void;
  /** The page's answer has arrived (its total is known). */
  settled: boolean;
  position?: "right" | "center";
}

/**
 * A list's pages. A page past the end (an old link, `?currentPage=99`, rows deleted meanwhile)
 * moves to the last one instead of showing an empty list as if there were nothing.
 */
export function ListPager({ currentPage, pageCount, setCurrentPage, settled, position = "right" }: ListPagerProps) {
  const last = Math.max(1, pageCount);
  const pastTheEnd = settled && currentPage > last;
  useEffect(() => {
    if (pastTheEnd) setCurrentPage(last);
  }, [pastTheEnd, last, setCurrentPage]);
  if (pageCount <= 1) return null;
  return (
    <Group position={position} mt="md">
      <Pager page={Math.min(currentPage, last)} total={pageCount} onChange={setCurrentPage} />
    </Group>
  );
}
