import { Text } from "@mantine/core";
import { IconRocketOff } from "@tabler/icons-react";
import { ConfirmButton } from "../../ui/confirm-button";

const UNPUBLISH_NOTICE =
  "Your client's link will show 'This gallery is being updated — please check back soon' until you publish again. The link stays the same.";

/** 'Unpublish Project', after a confirmation that says what the client will see meanwhile. */
export function UnpublishButton({ pending, onConfirm }: { pending: boolean; onConfirm: () => void }) {
  return (
    <ConfirmButton
      label="Unpublish Project"
      title="Unpublish project"
      confirmLabel="Unpublish"
      color="orange"
      variant="light"
      leftIcon={<IconRocketOff size={16} />}
      pending={pending}
      onConfirm={onConfirm}
    >
      <Text size="sm" mb="xs">
        {UNPUBLISH_NOTICE}
      </Text>
      <Text size="sm" color="dimmed" mb="md">
        Unpublishing lets you add, remove or change photos; the ZIP is built again when you publish.
      </Text>
    </ConfirmButton>
  );
}
