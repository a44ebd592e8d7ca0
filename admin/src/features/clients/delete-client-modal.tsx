import { useDelete } from "@refinedev/core";
import { useFailureFor } from "../../lib/failure";
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
  const failure = useFailureFor(client);

  const confirm = () => {
    if (!client) return;
    failure.clear();
    mutate(
      {
        resource: "clients",
        id: client.id,
        // Contacts are deleted and projects detached with it; counts on the dashboard change too.
        invalidates: ["all"],
        successNotification: { type: "success", message: "Client deleted" },
        errorNotification: false,
      },
      {
        onSuccess: () => {
          onClose();
          onDeleted?.(client);
        },
        onError: failure.show,
      },
    );
  };

  return (
    <ConfirmDeleteDialog
      opened={client !== null}
      title="Delete Client"
      loading={mutation.isPending}
      error={failure.message}
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
