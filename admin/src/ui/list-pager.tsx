import { useEffect } from "react";
import { Group } from "@mantine/core";
import { Pager } from "./pager";

/** What Refine's useTable answers about pages (its `refineCore` in @refinedev/react-table). */
interface Paging {
  currentPage: number;
  pageCount: number;
  setCurrentPage: (page: number) => void;
  /** Its `isSuccess`: the page's answer has arrived, so its total is known. */
  tableQuery: { isSuccess: boolean };
}

interface ListPagerProps {
  paging: Paging;
  position?: "right" | "center";
}

/**
 * A list's pages. A page past the end (an old link, `?currentPage=99`, rows deleted meanwhile)
 * moves to the last one instead of showing an empty list as if there were nothing.
 */
export function ListPager({ paging, position = "right" }: ListPagerProps) {
  const { currentPage, pageCount, setCurrentPage } = paging;
  const settled = paging.tableQuery.isSuccess;
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
