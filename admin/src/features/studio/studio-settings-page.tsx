import {
  Alert,
  Box,
  Button,
  Card,
  Center,
  Checkbox,
  ColorSwatch,
  Group,
  Loader,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import type { ChangeEvent } from "react";
import { useForm } from "@mantine/form";
import { useOne, type HttpError } from "@refinedev/core";
import { IconAlertCircle } from "@tabler/icons-react";
import { DEFAULT_ACCENT, isAccentColour, textColourOn, timeZones } from "../../../../api/studio";
import type { StudioSettings } from "../../../../api/types";
import { useFailure } from "../../lib/failure";
import { useVersionedEdit } from "../../lib/use-versioned-edit";
import { useVersionedUpdate } from "../../lib/versioned-update";
import { ClientLanguageSelect } from "../../ui/client-language-select";
import { ConflictAlert } from "../../ui/conflict-alert";
import { LogoCard } from "./logo-card";
import { studioRules, toFormValues, toStudioPayload, type StudioFormValues } from "./studio-rules";
import { t } from "../../i18n";

const FIELDS = [
  "name",
  "accentColor",
  "contactEmail",
  "contactPhone",
  "contactWebsite",
  "timeZone",
  "language",
  "followBrowserLanguage",
  "requireTwoFactor",
] as const;
const labels = () => ({
  name: t("studio.studioName"),
  accentColor: t("studio.accentColour"),
  contactEmail: t("studio.contactEMail"),
  contactPhone: t("studio.contactPhone"),
  contactWebsite: t("studio.webSite"),
  timeZone: t("studio.timeZone"),
  language: t("studio.clientLanguage"),
  followBrowserLanguage: t("studio.followBrowserLanguage"),
  requireTwoFactor: t("studio.requireTwoFactor"),
});
const TIME_ZONES = timeZones();

type Settings = StudioSettings & { id?: string };
/** The accent as typed when it is a colour yet, else the default: what the swatch and the picker show. */
const shown = (accent: string) => (isAccentColour(accent.trim()) ? accent.trim().toLowerCase() : DEFAULT_ACCENT);

/** What a button on the client's page looks like in the chosen accent, with the text colour picked for it. */
function AccentPreview({ accent }: { accent: string }) {
  const colour = shown(accent);
  return (
    <Stack spacing={4}>
      <Text size="xs" color="dimmed">
        {t("studio.preview")}
      </Text>
      <Box
        sx={{
          display: "inline-block",
          padding: "8px 16px",
          borderRadius: 6,
          fontWeight: 600,
          background: colour,
          color: textColourOn(colour),
        }}
      >
        {t("studio.downloadAll")}
      </Box>
    </Stack>
  );
}

/**
 * /studio (admins only): the studio's name, accent colour, contact line and logo, as every
 * client's delivery page shows them. One record, `studio/settings`, refreshed live when another
 * admin saves: fields the user has not touched follow it, and a save that would undo another
 * admin's says so instead (`useVersionedEdit`).
 */
export function StudioSettingsPage() {
  const { query, result } = useOne<Settings>({
    resource: "studio",
    id: "settings",
    errorNotification: false,
  });

  return (
    <Stack spacing="md" maw={720}>
      <Title order={1} size="h2">
        {t("studio.studio")}
      </Title>
      <Text color="dimmed">{t("studio.howYourStudioAppearsToClients")}</Text>
      {query.isError ? (
        <Alert color="red" title={t("studio.errorLoadingStudioSettings")} icon={<IconAlertCircle size={18} />}>
          {t("studio.failedToLoadTheStudioSettings")}
        </Alert>
      ) : result ? (
        <>
          <StudioForm settings={result} />
          <LogoCard logoUrl={result.logoUrl} />
        </>
      ) : (
        <Center h={200}>
          <Loader />
        </Center>
      )}
    </Stack>
  );
}

function StudioForm({ settings }: { settings: Settings }) {
  const form = useForm<StudioFormValues>({ initialValues: toFormValues(settings), validate: studioRules });
  const failure = useFailure(FIELDS);
  const versioned = useVersionedEdit({
    form,
    toValues: (record: Settings) => toFormValues(record),
    toPayload: toStudioPayload,
    labels: labels(),
    send: useVersionedUpdate<Settings>("studio", { idOf: () => "settings", successMessage: t("studio.settingsSaved") }),
    initial: settings,
    latest: settings,
  });

  const save = () => {
    failure.clear();
    versioned.save().catch((error: HttpError) => {
      // The server's message for each field it refused, beside that field.
      for (const [field, message] of Object.entries(error.errors ?? {}))
        if (typeof message === "string") form.setFieldError(field, message);
      failure.show(error);
    });
  };

  return (
    <Card withBorder p="lg">
      <form aria-label={t("studio.studioSettings")} noValidate onSubmit={form.onSubmit(save)}>
        <Stack spacing="sm">
          <TextInput label={t("studio.studioName")} required maxLength={100} {...form.getInputProps("name")} />
          <Group align="flex-end" spacing="md">
            <TextInput
              label={t("studio.accentColour")}
              description={t("studio.rrggbbButtonsOnTheClientS")}
              icon={<ColorSwatch color={shown(form.values.accentColor)} size={16} />}
              maxLength={7}
              sx={{ flex: 1, minWidth: 220 }}
              {...form.getInputProps("accentColor")}
            />
            <Box
              component="input"
              type="color"
              aria-label={t("studio.pickTheAccentColour")}
              value={shown(form.values.accentColor)}
              onChange={(event: ChangeEvent<HTMLInputElement>) =>
                form.setFieldValue("accentColor", event.currentTarget.value)
              }
              sx={{
                width: 44,
                height: 36,
                padding: 2,
                border: "1px solid #ced4da",
                borderRadius: 4,
                cursor: "pointer",
              }}
            />
            <AccentPreview accent={form.values.accentColor} />
          </Group>
          <TextInput label={t("studio.contactEMail")} type="email" {...form.getInputProps("contactEmail")} />
          <TextInput label={t("studio.contactPhone")} type="tel" {...form.getInputProps("contactPhone")} />
          <TextInput
            label={t("studio.webSite")}
            placeholder={t("studio.https")}
            type="url"
            maxLength={200}
            {...form.getInputProps("contactWebsite")}
          />
          <Select
            label={t("studio.timeZone")}
            description={t("studio.theLinkSExpiryInThe")}
            data={TIME_ZONES}
            searchable
            maxDropdownHeight={280}
            nothingFound={t("studio.noSuchTimeZone")}
            {...form.getInputProps("timeZone")}
          />
          <ClientLanguageSelect
            label={t("studio.clientLanguage")}
            description={t("studio.clientLanguageHint")}
            value={form.values.language}
            onChange={(language) => form.setFieldValue("language", language as StudioFormValues["language"])}
          />
          <Checkbox
            label={t("studio.followBrowserLanguage")}
            description={t("studio.followBrowserLanguageHint")}
            {...form.getInputProps("followBrowserLanguage", { type: "checkbox" })}
          />
          <Checkbox
            label={t("studio.requireTwoFactor")}
            description={t("studio.requireTwoFactorHint")}
            {...form.getInputProps("requireTwoFactor", { type: "checkbox" })}
          />
          <ConflictAlert
            conflict={versioned.conflict}
            busy={versioned.saving}
            onApply={save}
            onDiscard={versioned.discardMine}
          />
          {failure.message && (
            <Text size="sm" color="red" role="alert">
              {failure.message}
            </Text>
          )}
          <Group>
            <Button type="submit" loading={versioned.saving}>
              {t("studio.saveStudioSettings")}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
