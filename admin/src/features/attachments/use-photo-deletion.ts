import { useState } from "react";
import type { HttpError } from "@refinedev/core";
import { selectedCount, type PhotoSelection } from "./photo-selection";
import { useAttachmentDeletion } from "./use-attachment-deletion";
import { t } from "../../i18n";

type PendingDeletion = { id: number } | { selection: PhotoSelection; count: number } | null;

/**
 * The delete confirmation of a project's photos: one photo from its menu, or the selection. The
 * dialog stays open with the server's message when the delete fails; it closes on success.
 */
export function usePhotoDeletion(projectId: number, total: number, onSelectionDeleted: () => void) {
  const [pending, setPending] = useState<PendingDeletion>(null);
  const [error, setError] = useState<string | null>(null);
  const { deleteAttachment, deleteSelection, pending: busy } = useAttachmentDeletion();

  const ask = (deletion: NonNullable<PendingDeletion>) => {
    setError(null);
    setPending(deletion);
  };
  const close = () => {
    if (!busy) setPending(null);
  };
  const confirm = () => {
    if (!pending) return;
    setError(null);
    const outcome = {
      onSuccess: () => {
        setPending(null);
        if ("selection" in pending) onSelectionDeleted();
      },
      onError: (failure: HttpError) => setError(failure.message),
    };
    if ("id" in pending) deleteAttachment(pending.id, outcome);
    else deleteSelection(pending.selection, projectId, total, outcome);
  };

  const bulk = pending !== null && "selection" in pending ? pending : null;
  return {
    askOne: (id: number) => ask({ id }),
    askSelection: (selection: PhotoSelection) => ask({ selection, count: selectedCount(selection, total) }),
    dialog: {
      opened: pending !== null,
      title: bulk ? t("attachments.deleteSelectedTitle") : t("attachments.deleteOneTitle"),
      message: bulk ? t("attachments.confirmDeleteSelected", { count: bulk.count }) : t("attachments.confirmDeleteOne"),
      loading: busy,
      error,
      onConfirm: confirm,
      onCancel: close,
    },
  };
}
