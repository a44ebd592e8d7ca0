import {
  Alert,
  Box,
  Button,
  Card,
  Center,
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
import { ConflictAlert } from "../../ui/conflict-alert";
import { LogoCard } from "./logo-card";
import { studioRules, toFormValues, toStudioPayload, type StudioFormValues } from "./studio-rules";

const FIELDS = ["name", "accentColor", "contactEmail", "contactPhone", "contactWebsite", "timeZone"] as const;
const LABELS = {
  name: "Studio name",
  accentColor: "Accent colour",
  contactEmail: "Contact e-mail",
  contactPhone: "Contact phone",
  contactWebsite: "Web site",
  timeZone: "Time zone",
};
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
        Preview
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
        Download all
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
        Studio
      </Title>
      <Text color="dimmed">How your studio appears to clients on every delivery page.</Text>
      {query.isError ? (
        <Alert color="red" title="Error loading studio settings" icon={<IconAlertCircle size={18} />}>
          Failed to load the studio settings. Please try again later.
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
    labels: LABELS,
    send: useVersionedUpdate<Settings>("studio", { idOf: () => "settings", successMessage: "Studio settings saved" }),
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
      <form aria-label="Studio settings" noValidate onSubmit={form.onSubmit(save)}>
        <Stack spacing="sm">
          <TextInput label="Studio name" required maxLength={100} {...form.getInputProps("name")} />
          <Group align="flex-end" spacing="md">
            <TextInput
              label="Accent colour"
              description="#rrggbb: buttons on the client's page, with black or white text, whichever reads better"
              icon={<ColorSwatch color={shown(form.values.accentColor)} size={16} />}
              maxLength={7}
              sx={{ flex: 1, minWidth: 220 }}
              {...form.getInputProps("accentColor")}
            />
            <Box
              component="input"
              type="color"
              aria-label="Pick the accent colour"
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
          <TextInput label="Contact e-mail" type="email" {...form.getInputProps("contactEmail")} />
          <TextInput label="Contact phone" type="tel" {...form.getInputProps("contactPhone")} />
          <TextInput
            label="Web site"
            placeholder="https://"
            type="url"
            maxLength={200}
            {...form.getInputProps("contactWebsite")}
          />
          <Select
            label="Time zone"
            description="The link's expiry in the client's mails is given in this zone"
            data={TIME_ZONES}
            searchable
            maxDropdownHeight={280}
            nothingFound="No such time zone"
            {...form.getInputProps("timeZone")}
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
              Save studio settings
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
