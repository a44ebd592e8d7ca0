import { Center, Group, LoadingOverlay, ScrollArea, Table, Text, UnstyledButton } from "@mantine/core";
import { IconChevronDown, IconChevronUp, IconSelector } from "@tabler/icons-react";
import { flexRender, type Header, type Table as ReactTable } from "@tanstack/react-table";
import { usePhone } from "../lib/use-phone";
import { RowCards } from "./row-cards";

function SortIcon({ direction }: { direction: false | "asc" | "desc" }) {
  if (direction === "asc") return <IconChevronUp size={14} />;
  if (direction === "desc") return <IconChevronDown size={14} />;
  return <IconSelector size={14} />;
}

function HeaderCell<T>({ header }: { header: Header<T, unknown> }) {
  if (header.isPlaceholder) return <th />;
  const label = flexRender(header.column.columnDef.header, header.getContext());
  if (!header.column.getCanSort()) return <th>{label}</th>;
  const direction = header.column.getIsSorted();
  return (
    <th aria-sort={direction === "asc" ? "ascending" : direction === "desc" ? "descending" : "none"}>
      <UnstyledButton onClick={header.column.getToggleSortingHandler()}>
        <Group spacing={4} noWrap>
          <Text size="sm" weight={700}>
            {label}
          </Text>
          <SortIcon direction={direction} />
        </Group>
      </UnstyledButton>
    </th>
  );
}

interface SortableTableProps<T> {
  table: ReactTable<T>;
  loading: boolean;
  empty: React.ReactNode;
}

/**
 * A react-table rendered as a Mantine table with clickable sort headers (sorting is the caller's:
 * server side); on a phone, as cards.
 */
export function SortableTable<T>({ table, loading, empty }: SortableTableProps<T>) {
  const rows = table.getRowModel().rows;
  const phone = usePhone();
  return (
    <div style={{ position: "relative", minHeight: 120 }}>
      <LoadingOverlay visible={loading} overlayBlur={1} />
      {phone ? <RowCards table={table} /> : <RowTable table={table} />}
      {!loading && rows.length === 0 && <Center py="xl">{empty}</Center>}
    </div>
  );
}

function RowTable<T>({ table }: { table: ReactTable<T> }) {
  return (
    <ScrollArea type="auto" offsetScrollbars>
      <Table highlightOnHover verticalSpacing="sm" miw={560}>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <HeaderCell key={header.id} header={header} />
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id}>
              {row.getVisibleCells().map((cell) => (
                <td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </Table>
    </ScrollArea>
  );
}
