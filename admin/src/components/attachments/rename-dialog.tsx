import { useEffect, useState } from "react";
import { Button, Group, Modal, TextInput } from "@mantine/core";
import { useUpdate } from "@refinedev/core";
import type { Attachment } from "../projects/types";

interface RenameDialogProps {
  attachment: Attachment | null;
  onClose: () => void;
  onRenamed: () => void;
}

/** Renames an attachment; an empty or unchanged name just closes the dialog. */
export function RenameDialog({ attachment, onClose, onRenamed }: RenameDialogProps) {
  const [name, setName] = useState("");
  const { mutate, mutation } = useUpdate<Attachment>();
  useEffect(() => setName(attachment?.originalName ?? ""), [attachment]);

  const save = () => {
    const trimmed = name.trim();
    if (!attachment || !trimmed || trimmed === attachment.originalName) return onClose();
    mutate(
      {
        resource: "attachments",
        id: attachment.id,
        values: { originalName: trimmed },
        successNotification: false,
        errorNotification: false,
      },
      {
        onSuccess: onRenamed,
        onError: (error) => console.error("Failed to rename the attachment:", error.message),
        onSettled: onClose,
      },
    );
  };

  return (
    <Modal opened={attachment !== null} onClose={onClose} title="Rename Attachment" centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          save();
        }}
      >
        <TextInput label="File name" value={name} onChange={(event) => setName(event.currentTarget.value)} data-autofocus />
        <Group position="right" mt="lg">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={mutation.isPending}>
            Save
          </Button>
        </Group>
      </form>
    </Modal>
  );
}
