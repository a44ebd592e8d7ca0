import { useDelete } from "@refinedev/core";
import { useFailureFor } from "../../lib/failure";
import { ConfirmDeleteDialog } from "../../ui/confirm-delete-dialog";
import type { Contact } from "./types";

/** Confirms and deletes a contact; the server announces its client's new count (live). */
export function DeleteContactModal({ contact, onClose }: { contact: Contact | null; onClose: () => void }) {
  const { mutate, mutation } = useDelete<Contact>();
  const failure = useFailureFor(contact);

  const confirm = () => {
    if (!contact) return;
    failure.clear();
    mutate(
      {
        resource: "contacts",
        id: contact.id,
        successNotification: { type: "success", message: "Contact deleted" },
        errorNotification: false,
      },
      { onSuccess: onClose, onError: failure.show },
    );
  };

  return (
    <ConfirmDeleteDialog
      opened={contact !== null}
      title="Delete Contact"
      loading={mutation.isPending}
      error={failure.message}
      onCancel={onClose}
      onConfirm={confirm}
      message={<>Are you sure you want to delete the contact {contact?.name}? This action cannot be undone.</>}
    />
  );
}
