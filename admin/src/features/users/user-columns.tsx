import { Badge, Text } from "@mantine/core";
import type { ColumnDef } from "@tanstack/react-table";
import { formatDate, formatDateTime } from "../../lib/format";
import { ACCESS_COLORS, ACCESS_LABELS, ROLE_LABELS, type ManagedUser } from "./access-labels";
import { UserRowActions } from "./user-row-actions";
import { t } from "../../i18n";

/** The users list's columns; ids are the server's sort fields (contract: /api/users). */
export function userColumns(): ColumnDef<ManagedUser>[] {
  return [
    {
      id: "email",
      accessorKey: "email",
      header: t("users.email"),
      cell: ({ row }) => <Text weight={500}>{row.original.email}</Text>,
    },
    {
      id: "displayName",
      accessorKey: "displayName",
      header: t("users.name"),
      cell: ({ row }) => row.original.displayName ?? "",
    },
    { id: "role", accessorKey: "role", header: t("users.role"), cell: ({ row }) => t(ROLE_LABELS[row.original.role]) },
    {
      id: "access",
      accessorKey: "access",
      header: t("users.access"),
      enableSorting: false,
      cell: ({ row }) => (
        <Badge variant="light" color={ACCESS_COLORS[row.original.access]}>
          {t(ACCESS_LABELS[row.original.access])}
        </Badge>
      ),
    },
    {
      id: "twoFactor",
      header: t("users.twoFactor"),
      enableSorting: false,
      cell: ({ row }) => (
        <Badge variant="light" color={row.original.twoFactor ? "green" : "gray"}>
          {row.original.twoFactor ? t("users.twoFactorOn") : t("users.twoFactorOff")}
        </Badge>
      ),
    },
    {
      id: "accessRequest.message",
      header: t("users.message"),
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
      header: t("users.requested"),
      cell: ({ row }) => formatDateTime(row.original.accessRequest?.createdAt),
    },
    {
      id: "createdAt",
      accessorKey: "createdAt",
      header: t("users.created"),
      cell: ({ row }) => formatDate(row.original.createdAt),
    },
    { id: "actions", header: "", enableSorting: false, cell: ({ row }) => <UserRowActions user={row.original} /> },
  ];
}
