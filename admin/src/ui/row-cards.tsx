import type { ReactNode } from "react";
import { Group, Paper, Stack, Text } from "@mantine/core";
import { flexRender, type Row, type Table as ReactTable } from "@tanstack/react-table";

/** The column that holds a row's buttons or menu: kept whole at the card's foot. */
const ACTIONS = "actions";

/** One value of a card, its label (a table's column header) before it. */
export function CardLine({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <Group spacing="xs" noWrap={false} align="baseline">
      <Text size="xs" color="dimmed" weight={700} miw={84}>
        {label}
      </Text>
      <Text size="sm" component="div" sx={{ minWidth: 0, overflowWrap: "anywhere" }}>
        {children}
      </Text>
    </Group>
  );
}

function RowCard<T>({ row, table }: { row: Row<T>; table: ReactTable<T> }) {
  const [first, ...rest] = row.getVisibleCells();
  const actions = rest.find((cell) => cell.column.id === ACTIONS);
  const details = rest.filter((cell) => cell !== actions);
  const headerOf = (columnId: string) => {
    const header = table.getFlatHeaders().find((h) => h.column.id === columnId);
    return header ? flexRender(header.column.columnDef.header, header.getContext()) : null;
  };
  return (
    <Paper role="listitem" withBorder radius="md" p="sm">
      <Stack spacing={6}>
        <div>{flexRender(first.column.columnDef.cell, first.getContext())}</div>
        {details.map((cell) => (
          <CardLine key={cell.id} label={headerOf(cell.column.id)}>
            {flexRender(cell.column.columnDef.cell, cell.getContext())}
          </CardLine>
        ))}
        {actions && <Group position="right">{flexRender(actions.column.columnDef.cell, actions.getContext())}</Group>}
      </Stack>
    </Paper>
  );
}

/** A table's rows as cards, one under the other (phones): every value labelled, every action in reach. */
export function RowCards<T>({ table }: { table: ReactTable<T> }) {
  return (
    <Stack role="list" spacing="sm">
      {table.getRowModel().rows.map((row) => (
        <RowCard key={row.id} row={row} table={table} />
      ))}
    </Stack>
  );
}
