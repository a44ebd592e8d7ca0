import { useState } from "react";
import { TextInput } from "@mantine/core";
import { useUpdate } from "@refinedev/core";
import { FormDialog } from "../../ui/form-dialog";
import { useFailureFor } from "../../lib/failure";
import { nameError } from "../../lib/name-rule";
import type { Attachment } from "../../../../api/types";
import { t } from "../../i18n";

interface RenameDialogProps {
  attachment: Attachment | null;
  onClose: () => void;
}

/** Renames an attachment; an empty or unchanged name just closes the dialog. */
export function RenameDialog({ attachment, onClose }: RenameDialogProps) {
  const [name, setName] = useState("");
  const { mutate, mutation } = useUpdate<Attachment>();
  const failure = useFailureFor(attachment);
  // A newly opened attachment starts from its own name (React's "adjust state on a prop change").
  const [shownFor, setShownFor] = useState(attachment);
  if (attachment !== shownFor) {
    setShownFor(attachment);
    setName(attachment?.originalName ?? "");
  }

  const save = () => {
    const trimmed = name.trim();
    if (!attachment || !trimmed || trimmed === attachment.originalName) return onClose();
    // One line, as the server requires of a typed name.
    const problem = nameError(trimmed);
    if (problem) return failure.show({ message: problem });
    failure.clear();
    mutate(
      {
        resource: "attachments",
        id: attachment.id,
        values: { originalName: trimmed },
        successNotification: { type: "success", message: t("attachments.renamed") },
        errorNotification: false,
      },
      { onSuccess: onClose, onError: failure.show },
    );
  };

  return (
    <FormDialog
      title={t("attachments.renameAttachment")}
      opened={attachment !== null}
      onClose={onClose}
      onSubmit={(event) => {
        event?.preventDefault();
        save();
      }}
      loading={mutation.isPending}
      error={failure.message}
    >
      <TextInput
        label={t("attachments.fileName")}
        value={name}
        onChange={(event) => setName(event.currentTarget.value)}
        data-autofocus
      />
    </FormDialog>
  );
}
