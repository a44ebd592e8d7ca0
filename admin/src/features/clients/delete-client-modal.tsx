import { useDelete } from "@refinedev/core";
import { useFailureFor } from "../../lib/failure";
import { ConfirmDeleteDialog } from "../../ui/confirm-delete-dialog";
import type { Client } from "./types";
import { t } from "../../i18n";

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
        successNotification: { type: "success", message: t("clients.deleted") },
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
      title={t("clients.deleteClient")}
      loading={mutation.isPending}
      error={failure.message}
      onCancel={onClose}
      onConfirm={confirm}
      message={<>{t("clients.areYouSureYouWantTo", { name: client?.name })}</>}
    />
  );
}
