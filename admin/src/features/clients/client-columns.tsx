import { Anchor, Badge } from "@mantine/core";
import type { ColumnDef } from "@tanstack/react-table";
import { Link } from "react-router";
import { ClientRowActions } from "./client-row-menu";
import { formatDate } from "../../lib/format";
import type { Client } from "./types";
import { t } from "../../i18n";

interface RowHandlers {
  onEdit: (client: Client) => void;
  onDelete: (client: Client) => void;
}

/** The client list's columns; every data column sorts on the server. */
export function clientColumns({ onEdit, onDelete }: RowHandlers): ColumnDef<Client>[] {
  return [
    {
      id: "name",
      accessorKey: "name",
      header: t("clients.name"),
      cell: ({ row }) => (
        <Anchor component={Link} to={`/clients/${row.original.id}`} weight={500}>
          {row.original.name}
        </Anchor>
      ),
    },
    {
      id: "createdAt",
      accessorKey: "createdAt",
      header: t("clients.created"),
      cell: ({ row }) => formatDate(row.original.createdAt),
    },
    {
      id: "projectCount",
      accessorKey: "projectCount",
      header: t("clients.projects"),
      cell: ({ row }) => (
        <Badge variant="light" color="teal">
          {row.original.projectCount}
        </Badge>
      ),
    },
    {
      id: "contactCount",
      accessorKey: "contactCount",
      header: t("clients.contacts"),
      cell: ({ row }) => (
        <Badge variant="light" color="grape">
          {row.original.contactCount}
        </Badge>
      ),
    },
    {
      id: "actions",
      header: "",
      enableSorting: false,
      cell: ({ row }) => <ClientRowActions client={row.original} onEdit={onEdit} onDelete={onDelete} />,
    },
  ];
}
