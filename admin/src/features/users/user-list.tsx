import { useEffect, useMemo, useState } from "react";
import { Badge, Center, Group, Loader, SegmentedControl, Stack, Text, TextInput, Title } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import type { CrudFilter, CrudSort } from "@refinedev/core";
import { List } from "@refinedev/mantine";
import { useTable } from "@refinedev/react-table";
import { IconSearch } from "@tabler/icons-react";
import { useSearchParams } from "react-router";
import { SortableTable } from "../../ui/sortable-table";
import { ListPager } from "../../ui/list-pager";
import { ACCESS_FILTERS, type AccessFilter, type ManagedUser } from "./access-labels";
import { PENDING_FILTER, usePendingCount } from "./use-pending-count";
import { userColumns } from "./user-columns";
import { t } from "../../i18n";

const PAGE_SIZE = 20;
const SEARCH = "q";
const ACCESS = "access";
const OLDEST_FIRST: CrudSort[] = [{ field: "createdAt", order: "asc" }];

/**
 * /users (admins only). Without a filter in the address it opens on 'Pending' when anyone is
 * waiting, otherwise on 'All'; the filter, search, sort and page then live in the address.
 */
export function UserList() {
  const [searchParams] = useSearchParams();
  const hasFiltersInUrl = [...searchParams.keys()].some((key) => key.startsWith("filters"));
  const pending = usePendingCount();
  if (!hasFiltersInUrl && pending === undefined) {
    return (
      <Center h={200}>
        <Loader />
      </Center>
    );
  }
  return <UsersTable initialFilters={!hasFiltersInUrl && pending ? [PENDING_FILTER] : []} />;
}

function UsersTable({ initialFilters }: { initialFilters: CrudFilter[] }) {
  const columns = useMemo(() => userColumns(), []);
  const table = useTable<ManagedUser>({
    columns,
    enableMultiSort: false,
    getRowId: (user) => user.uid,
    refineCoreProps: {
      resource: "users",
      pagination: { pageSize: PAGE_SIZE },
      sorters: { initial: OLDEST_FIRST },
      filters: { initial: initialFilters },
      errorNotification: false,
    },
  });
  const {
    reactTable,
    refineCore: { tableQuery, result },
  } = table;

  const filters = reactTable.getState().columnFilters;
  const access = (filters.find((f) => f.id === ACCESS)?.value as AccessFilter | undefined) ?? "all";
  const setAccess = (value: string) =>
    reactTable.setColumnFilters((current) => [
      ...current.filter((f) => f.id !== ACCESS),
      ...(value === "all" ? [] : [{ id: ACCESS, value }]),
    ]);

  const [search, setSearch] = useState(String(filters.find((f) => f.id === SEARCH)?.value ?? ""));
  const [debouncedSearch] = useDebouncedValue(search.trim(), 300);
  useEffect(() => {
    reactTable.setColumnFilters((current) => [
      ...current.filter((f) => f.id !== SEARCH),
      ...(debouncedSearch ? [{ id: SEARCH, value: debouncedSearch }] : []),
    ]);
  }, [debouncedSearch, reactTable]);

  const total = result.total ?? 0;
  return (
    <List
      title={
        <Group spacing="sm">
          <Title order={1} size="h3">
            {t("users.users")}
          </Title>
          <Badge size="lg" variant="light">
            {t("users.userCount", { count: total })}
          </Badge>
        </Group>
      }
      breadcrumb={false}
    >
      <Stack spacing="md">
        <Group spacing="md">
          <SegmentedControl
            aria-label={t("users.showUsers")}
            data={ACCESS_FILTERS.map(({ value, label }) => ({ value, label: t(label) }))}
            value={access}
            onChange={setAccess}
          />
          <TextInput
            placeholder={t("users.searchByEMailOrName")}
            aria-label={t("users.searchUsers")}
            icon={<IconSearch size={16} />}
            value={search}
            onChange={(event) => setSearch(event.currentTarget.value)}
            w={320}
          />
        </Group>
        {tableQuery.isError ? (
          <Text color="red">{t("users.failedToLoadUsersPleaseTry")}</Text>
        ) : (
          <SortableTable
            table={reactTable}
            loading={tableQuery.isLoading}
            empty={
              <Text color="dimmed">
                {access === "pending" ? t("users.noPendingRequests") : t("users.noUsersFound")}
              </Text>
            }
          />
        )}
        <ListPager paging={table.refineCore} position="right" />
      </Stack>
    </List>
  );
}
