import { Card, Divider, Group, Stack, Text, Title } from "@mantine/core";
import { useOne } from "@refinedev/core";
import type { Project, StudioSettings } from "../../../../api/types";
import { DeliveryFigures } from "./delivery-figures";
import { DeliveryLinkState } from "./delivery-link-state";
import { DeliverySettingsForm } from "./delivery-settings-form";
import { RegenerateLinkButton } from "./regenerate-link-button";
import { useDeliveryActions } from "./use-delivery-actions";
import { useClientLink } from "./use-client-link";
import { t } from "../../i18n";

/** The client's delivery page: its link, its settings and what the client did with it. */
export function DeliveryCard({ project }: { project: Project }) {
  const actions = useDeliveryActions(project.id);
  const clientLink = useClientLink();
  // The same record the header reads: the 'Studio default' choice names the studio's language.
  const { result: studio } = useOne<StudioSettings>({ resource: "studio", id: "settings", errorNotification: false });
  return (
    <Card withBorder shadow="xs" radius="md" p="lg" mt="md" aria-label={t("delivery.delivery")}>
      <Group position="apart" mb="md">
        <Title order={4}>{t("delivery.delivery")}</Title>
        <DeliveryLinkState project={project} />
      </Group>
      <Stack spacing="md">
        {project.deliveryUrl ? (
          <Text
            size="sm"
            sx={{ fontFamily: "monospace", overflowWrap: "anywhere" }}
            aria-label={t("delivery.deliveryPageLink")}
          >
            {clientLink(project.deliveryUrl)}
          </Text>
        ) : (
          <Text size="sm" color="dimmed">
            {t("delivery.publishTheProjectToGiveYour")}
          </Text>
        )}
        <DeliveryFigures delivery={project.delivery} />
        <Divider />
        <DeliverySettingsForm
          // Another project's page starts a form of its own; this one's changes are followed live.
          key={project.id}
          project={project}
          saving={actions.saving}
          onSave={actions.saveSettings}
          studioLanguage={studio?.language}
        />
        {project.deliveryUrl && (
          <Group>
            <RegenerateLinkButton pending={actions.regenerating} onConfirm={actions.regenerateLink} />
          </Group>
        )}
      </Stack>
    </Card>
  );
}
