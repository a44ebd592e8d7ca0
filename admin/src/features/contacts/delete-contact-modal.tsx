import { useDelete } from "@refinedev/core";
import { ConfirmDeleteDialog } from "../../ui/confirm-delete-dialog";
import type { Contact } from "./types";

/** Confirms and deletes a contact; the server announces its client's new count (live). */
export function DeleteContactModal({ contact, onClose }: { contact: Contact | null; onClose: () => void }) {
  const { mutate, mutation } = useDelete<Contact>();

  const confirm = () => {
    if (!contact) return;
    mutate(
      { resource: "contacts", id: contact.id, successNotification: false, errorNotification: false },
      {
        onSuccess: onClose,
        onError: (error) => {
          console.error("Failed to delete the contact:", error.message);
          onClose();
        },
      },
    );
  };

  return (
    <ConfirmDeleteDialog
      opened={contact !== null}
      title="Delete Contact"
      loading={mutation.isPending}
      onCancel={onClose}
      onConfirm={confirm}
      message={<>Are you sure you want to delete the contact {contact?.name}? This action cannot be undone.</>}
    />
  );
}
