import { Badge, Text } from "@mantine/core";
import type { ColumnDef } from "@tanstack/react-table";
import { formatDate, formatDateTime } from "../../lib/format";
import { ACCESS_COLORS, ACCESS_LABELS, ROLE_LABELS, type ManagedUser } from "./access-labels";
import { UserRowActions } from "./user-row-actions";

/** The users list's columns; ids are the server's sort fields (contract: /api/users). */
export function userColumns(): ColumnDef<ManagedUser>[] {
  return [
    {
      id: "email",
      accessorKey: "email",
      header: "E-mail",
      cell: ({ row }) => <Text weight={500}>{row.original.email}</Text>,
    },
    {
      id: "displayName",
      accessorKey: "displayName",
      header: "Name",
      cell: ({ row }) => row.original.displayName ?? "",
    },
    { id: "role", accessorKey: "role", header: "Role", cell: ({ row }) => ROLE_LABELS[row.original.role] },
    {
      id: "access",
      accessorKey: "access",
      header: "Access",
      enableSorting: false,
      cell: ({ row }) => (
        <Badge variant="light" color={ACCESS_COLORS[row.original.access]}>
          {ACCESS_LABELS[row.original.access]}
        </Badge>
      ),
    },
    {
      id: "accessRequest.message",
      header: "Message",
      enableSorting: false,
      cell: ({ row }) => (
        <Text size="sm" sx={{ whiteSpace: "pre-wrap", maxWidth: 280 }}>
          {row.original.accessRequest?.message ?? ""}
        </Text>
      ),
    },
    {
      id: "accessRequest.createdAt",
      accessorFn: (user) => user.accessRequest?.createdAt ?? "",
      header: "Requested",
      cell: ({ row }) => formatDateTime(row.original.accessRequest?.createdAt),
    },
    {
      id: "createdAt",
      accessorKey: "createdAt",
      header: "Created",
      cell: ({ row }) => formatDate(row.original.createdAt),
    },
    { id: "actions", header: "", enableSorting: false, cell: ({ row }) => <UserRowActions user={row.original} /> },
  ];
}
