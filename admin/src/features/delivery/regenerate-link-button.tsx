import { Text } from "@mantine/core";
import { IconRefresh } from "@tabler/icons-react";
import { ConfirmButton } from "../../ui/confirm-button";
import { t } from "../../i18n";

/** 'Regenerate link', after a confirmation: the old page, photos and ZIP stop working at once. */
export function RegenerateLinkButton({ pending, onConfirm }: { pending: boolean; onConfirm: () => Promise<unknown> }) {
  return (
    <ConfirmButton
      label={t("delivery.regenerateLink")}
      title={t("delivery.regenerateLink")}
      confirmLabel={t("delivery.regenerate")}
      variant="default"
      color="orange"
      leftIcon={<IconRefresh size={16} />}
      pending={pending}
      onConfirm={onConfirm}
    >
      <Text size="sm" mb="md">
        {t("delivery.theCurrentDeliveryPageItsPhotos")}
      </Text>
    </ConfirmButton>
  );
}
