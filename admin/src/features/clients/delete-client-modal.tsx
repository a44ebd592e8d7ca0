import { useDelete } from "@refinedev/core";
import { ConfirmDeleteDialog } from "../../ui/confirm-delete-dialog";
import type { Client } from "./types";

interface DeleteClientModalProps {
  client: Client | null;
  onClose: () => void;
  onDeleted?: (client: Client) => void;
}

/** Confirms and deletes a client: its contacts go with it, its projects stay as "No client". */
export function DeleteClientModal({ client, onClose, onDeleted }: DeleteClientModalProps) {
  const { mutate, mutation } = useDelete<Client>();

  const confirm = () => {
    if (!client) return;
    mutate(
      {
        resource: "clients",
        id: client.id,
        // Contacts are deleted and projects detached with it; counts on the dashboard change too.
        invalidates: ["all"],
        successNotification: false,
        errorNotification: false,
      },
      {
        onSuccess: () => {
          onClose();
          onDeleted?.(client);
        },
        onError: (error) => {
          console.error("Failed to delete the client:", error.message);
          onClose();
        },
      },
    );
  };

  return (
    <ConfirmDeleteDialog
      opened={client !== null}
      title="Delete Client"
      loading={mutation.isPending}
      onCancel={onClose}
      onConfirm={confirm}
      message={
        <>
          Are you sure you want to delete {client?.name}? Its contacts will be deleted too; its projects are kept
          without a client. This action cannot be undone.
        </>
      }
    />
  );
}
