import { useState } from "react";
import { Button, Group, Modal, Text } from "@mantine/core";
import { IconRocketOff } from "@tabler/icons-react";

export const UNPUBLISH_NOTICE =
  "Your client's link will show 'This gallery is being updated — please check back soon' until you publish again. The link stays the same.";

/** 'Unpublish Project', after a confirmation that says what the client will see meanwhile. */
export function UnpublishButton({ pending, onConfirm }: { pending: boolean; onConfirm: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        color="orange"
        variant="light"
        leftIcon={<IconRocketOff size={16} />}
        loading={pending}
        onClick={() => setOpen(true)}
      >
        Unpublish Project
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title="Unpublish project" centered>
        <Text size="sm" mb="xs">
          {UNPUBLISH_NOTICE}
        </Text>
        <Text size="sm" color="dimmed" mb="md">
          Unpublishing lets you add, remove or change photos; the ZIP is built again when you publish.
        </Text>
        <Group position="right" spacing="xs">
          <Button variant="default" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <Button
            color="orange"
            onClick={() => {
              setOpen(false);
              onConfirm();
            }}
          >
            Unpublish
          </Button>
        </Group>
      </Modal>
    </>
  );
}
