import { useEffect, useState } from "react";
import { TextInput } from "@mantine/core";
import { ListPager } from "../../ui/list-pager";
import { useDebouncedValue } from "@mantine/hooks";
import { useTable, type CrudSort } from "@refinedev/core";
import { IconSearch } from "@tabler/icons-react";
import { useLocation } from "react-router";
import { ProjectsPanel } from "./projects-panel";
import type { Project } from "./types";
import { t } from "../../i18n";

const PAGE_SIZE = 10;
const SEARCH = "q";
const NEWEST_FIRST: CrudSort[] = [
  { field: "createdAt", order: "desc" },
  { field: "id", order: "desc" },
];

/** /projects/all and /projects/recent: every project, newest first; page, sort and search in the URL. */
export function ProjectList() {
  const recent = useLocation().pathname.endsWith("/recent");
  // A fresh table per route, so each starts from its own URL state.
  return (
    <ProjectTable
      key={recent ? "recent" : "all"}
      title={recent ? t("projects.recentProjects") : t("projects.allProjects")}
    />
  );
}

function ProjectTable({ title }: { title: string }) {
  const paging = useTable<Project>({
    resource: "projects",
    pagination: { pageSize: PAGE_SIZE },
    sorters: { initial: NEWEST_FIRST },
    errorNotification: false,
  });
  const { tableQuery, result, filters, setFilters } = paging;

  const initialSearch = String(filters.find((f) => "field" in f && f.field === SEARCH)?.value ?? "");
  const [search, setSearch] = useState(initialSearch);
  const [debouncedSearch] = useDebouncedValue(search.trim(), 300);
  useEffect(() => {
    // The server's q parameter searches by name; simple-rest sends a filter on "q" as q=.
    setFilters((current) => [
      ...current.filter((f) => !("field" in f) || f.field !== SEARCH),
      ...(debouncedSearch ? [{ field: SEARCH, operator: "eq" as const, value: debouncedSearch }] : []),
    ]);
  }, [debouncedSearch, setFilters]);

  return (
    <ProjectsPanel
      title={title}
      projects={result.data}
      total={result.total ?? 0}
      loading={tableQuery.isLoading}
      toolbar={
        <TextInput
          mb="md"
          placeholder={t("projects.searchProjectsByName")}
          aria-label={t("projects.searchProjects")}
          icon={<IconSearch size={16} />}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          maw={360}
        />
      }
      footer={<ListPager paging={paging} position="center" />}
    />
  );
}
