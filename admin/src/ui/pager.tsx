import { Pagination, type PaginationProps } from "@mantine/core";
import { t } from "../i18n";

const LABELS: Record<string, string> = {
  prev: "ui.previousPage",
  next: "ui.nextPage",
  first: "ui.firstPage",
  last: "ui.lastPage",
};

/** Mantine's pagination with a name on every control (its arrows have none of their own). */
export function Pager(props: Omit<PaginationProps, "getItemAriaLabel">) {
  return (
    <Pagination
      {...props}
      getItemAriaLabel={(item) => (typeof item === "number" ? t("ui.page", { page: item }) : t(LABELS[item]))}
    />
  );
}
