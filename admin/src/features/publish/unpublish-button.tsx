import { Text } from "@mantine/core";
import { IconRocketOff } from "@tabler/icons-react";
import { ConfirmButton } from "../../ui/confirm-button";
import { t } from "../../i18n";

/** 'Unpublish Project', after a confirmation that says what the client will see meanwhile. */
export function UnpublishButton({ pending, onConfirm }: { pending: boolean; onConfirm: () => void }) {
  return (
    <ConfirmButton
      label={t("publish.unpublishProject")}
      title={t("publish.unpublishProject2")}
      confirmLabel={t("publish.unpublish")}
      color="orange"
      variant="light"
      leftIcon={<IconRocketOff size={16} />}
      pending={pending}
      onConfirm={onConfirm}
    >
      <Text size="sm" mb="xs">
        {t("publish.unpublishNotice")}
      </Text>
      <Text size="sm" color="dimmed" mb="md">
        {t("publish.unpublishingLetsYouAddRemoveOr")}
      </Text>
    </ConfirmButton>
  );
}
