import { Text } from "@mantine/core";
import { IconRefresh } from "@tabler/icons-react";
import { ConfirmButton } from "../../ui/confirm-button";

/** 'Regenerate link', after a confirmation: the old page, photos and ZIP stop working at once. */
export function RegenerateLinkButton({ pending, onConfirm }: { pending: boolean; onConfirm: () => Promise<unknown> }) {
  return (
    <ConfirmButton
      label="Regenerate link"
      title="Regenerate link"
      confirmLabel="Regenerate"
      variant="default"
      color="orange"
      leftIcon={<IconRefresh size={16} />}
      pending={pending}
      onConfirm={onConfirm}
    >
      <Text size="sm" mb="md">
        The current delivery page, its photos and its ZIP link stop working at once. Send your client the new link.
      </Text>
    </ConfirmButton>
  );
}
