import { Pagination, type PaginationProps } from "@mantine/core";

const LABELS: Record<string, string> = {
  prev: "Previous page",
  next: "Next page",
  first: "First page",
  last: "Last page",
};

/** Mantine's pagination with a name on every control (its arrows have none of their own). */
export function Pager(props: Omit<PaginationProps, "getItemAriaLabel">) {
  return (
    <Pagination {...props} getItemAriaLabel={(item) => (typeof item === "number" ? `Page ${item}` : LABELS[item])} />
  );
}
