import { useEffect, useMemo, useRef, useState } from "react";
import { Badge, Button, Group, Stack, Text, TextInput, Title } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import type { CrudSort } from "@refinedev/core";
import { List } from "@refinedev/mantine";
import { useTable } from "@refinedev/react-table";
import { IconPlus, IconSearch } from "@tabler/icons-react";
import { useLocation } from "react-router";
import { clientColumns } from "./client-columns";
import { ClientFormModal } from "./client-form-modal";
import { DeleteClientModal } from "./delete-client-modal";
import { SortableTable } from "../../ui/sortable-table";
import { ListPager } from "../../ui/list-pager";
import type { Client } from "./types";
import { useClientModalForm } from "./use-client-modal-form";
import { t } from "../../i18n";

const PAGE_SIZE = 10;
const SEARCH = "q";
const BY_NAME: CrudSort[] = [{ field: "name", order: "asc" }];
const NEWEST_FIRST: CrudSort[] = [{ field: "createdAt", order: "desc" }];

/** /clients/all (by name) and /clients/recent (newest first). */
export function ClientList() {
  const { pathname } = useLocation();
  const recent = pathname.endsWith("/recent");
  // A fresh table per route, so each starts from its own sort order.
  return <ClientTable key={recent ? "recent" : "all"} recent={recent} />;
}

function ClientTable({ recent }: { recent: boolean }) {
  const createForm = useClientModalForm("create");
  const editForm = useClientModalForm("edit");
  const [clientToDelete, setClientToDelete] = useState<Client | null>(null);

  // Columns must keep their identity (react-table resets to page 1 when they change), so they
  // reach the latest handlers through a ref.
  const openEditRef = useRef(editForm.showFor);
  openEditRef.current = editForm.showFor;
  const columns = useMemo(
    () => clientColumns({ onEdit: (client) => openEditRef.current(client), onDelete: setClientToDelete }),
    [],
  );

  const table = useTable<Client>({
    columns,
    enableMultiSort: false,
    refineCoreProps: {
      resource: "clients",
      pagination: { pageSize: PAGE_SIZE },
      sorters: { initial: recent ? NEWEST_FIRST : BY_NAME },
      errorNotification: false,
    },
  });
  const {
    reactTable,
    refineCore: { tableQuery, result },
  } = table;

  const initialSearch = String(reactTable.getState().columnFilters.find((f) => f.id === SEARCH)?.value ?? "");
  const [search, setSearch] = useState(initialSearch);
  const [debouncedSearch] = useDebouncedValue(search.trim(), 300);
  useEffect(() => {
    // The server's q parameter searches by name; simple-rest sends a filter on "q" as q=.
    reactTable.setColumnFilters((filters) => [
      ...filters.filter((f) => f.id !== SEARCH),
      ...(debouncedSearch ? [{ id: SEARCH, value: debouncedSearch }] : []),
    ]);
  }, [debouncedSearch, reactTable]);

  const total = result.total ?? 0;

  return (
    <>
      <List
        title={
          <Group spacing="sm">
            <Title order={1} size="h3">
              {recent ? t("clients.recentClients") : t("clients.allClients")}
            </Title>
            <Badge size="lg" variant="light">
              {t("clients.clientCount", { count: total })}
            </Badge>
          </Group>
        }
        breadcrumb={false}
        headerButtons={
          <Button leftIcon={<IconPlus size={16} />} onClick={createForm.showNew}>
            {t("clients.addClient")}
          </Button>
        }
      >
        <Stack spacing="md">
          <TextInput
            placeholder={t("clients.searchClientsByName")}
            aria-label={t("clients.searchClients")}
            icon={<IconSearch size={16} />}
            value={search}
            onChange={(event) => setSearch(event.currentTarget.value)}
            maw={360}
          />
          {tableQuery.isError ? (
            <Text color="red">{t("clients.failedToLoadClientsPleaseTry")}</Text>
          ) : (
            <SortableTable
              table={reactTable}
              loading={tableQuery.isLoading}
              empty={
                <Text color="dimmed">
                  {debouncedSearch ? t("clients.noClientsMatchThisSearch") : t("clients.noClientsFound")}
                </Text>
              }
            />
          )}
          <ListPager paging={table.refineCore} position="right" />
        </Stack>
      </List>
      <ClientFormModal form={createForm} title={t("clients.addClient")} />
      <ClientFormModal form={editForm} title={t("clients.editClient")} />
      <DeleteClientModal client={clientToDelete} onClose={() => setClientToDelete(null)} />
    </>
  );
}
