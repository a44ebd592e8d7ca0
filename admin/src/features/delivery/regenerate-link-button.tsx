import { useState } from "react";
import { Button, Group, Modal, Text } from "@mantine/core";
import { IconRefresh } from "@tabler/icons-react";
import { FailureAlert } from "../../ui/failure-alert";
import { useFailureFor } from "../../lib/failure";

/** 'Regenerate link', after a confirmation: the old page, photos and ZIP stop working at once. */
export function RegenerateLinkButton({ pending, onConfirm }: { pending: boolean; onConfirm: () => Promise<unknown> }) {
  const [open, setOpen] = useState(false);
  const failure = useFailureFor(open);
  return (
    <>
      <Button
        variant="default"
        color="orange"
        leftIcon={<IconRefresh size={16} />}
        loading={pending}
        onClick={() => setOpen(true)}
      >
        Regenerate link
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title="Regenerate link" centered>
        <Text size="sm" mb="md">
          The current delivery page, its photos and its ZIP link stop working at once. Send your client the new link.
        </Text>
        {failure.message && <FailureAlert message={failure.message} mt={0} />}
        <Group position="right" spacing="xs">
          <Button variant="default" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <Button
            color="orange"
            loading={pending}
            onClick={() => {
              failure.clear();
              onConfirm().then(() => setOpen(false), failure.show);
            }}
          >
            Regenerate
          </Button>
        </Group>
      </Modal>
    </>
  );
}
