import { useCustomMutation, useDelete, type HttpError } from "@refinedev/core";
import { deletionRequest, selectedCount, type PhotoSelection } from "./photo-selection";
import { t } from "../../i18n";

interface Outcome {
  onSuccess: () => void;
  onError: (error: HttpError) => void;
}

const deleted = (count: number) => t("attachments.deleted", { count });

/**
 * Deleting one attachment, or a selection with the one bulk call (a 'Select All' of any size
 * included). The caller shows a failure where the user is; a success is confirmed by a
 * notification. The project and its photos refresh through the live provider.
 */
export function useAttachmentDeletion() {
  const { mutate: deleteOne, mutation: single } = useDelete();
  const { mutate: deleteMany, mutation: bulk } = useCustomMutation();

  return {
    pending: single.isPending || bulk.isPending,
    deleteAttachment: (id: number, outcome: Outcome) =>
      deleteOne(
        {
          resource: "attachments",
          id,
          successNotification: { type: "success", message: deleted(1) },
          errorNotification: false,
        },
        outcome,
      ),
    deleteSelection: (selection: PhotoSelection, projectId: number, total: number, outcome: Outcome) => {
      const count = selectedCount(selection, total);
      deleteMany(
        {
          url: "/attachments",
          method: "delete",
          values: deletionRequest(selection, projectId, total),
          successNotification: { type: "success", message: deleted(count) },
          errorNotification: false,
        },
        outcome,
      );
    },
  };
}
