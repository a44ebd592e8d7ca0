import { useDelete } from "@refinedev/core";
import { useFailureFor } from "../../lib/failure";
import { ConfirmDeleteDialog } from "../../ui/confirm-delete-dialog";
import type { Contact } from "./types";
import { t } from "../../i18n";

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
        successNotification: { type: "success", message: t("contacts.deleted") },
        errorNotification: false,
      },
      { onSuccess: onClose, onError: failure.show },
    );
  };

  return (
    <ConfirmDeleteDialog
      opened={contact !== null}
      title={t("contacts.deleteContact")}
      loading={mutation.isPending}
      error={failure.message}
      onCancel={onClose}
      onConfirm={confirm}
      message={<>{t("contacts.areYouSureYouWantTo", { name: contact?.name })}</>}
    />
  );
}
