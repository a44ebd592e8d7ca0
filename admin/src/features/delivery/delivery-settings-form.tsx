import { Button, Group, PasswordInput, Stack, Text, TextInput } from "@mantine/core";
import { LANGUAGE_NAMES, type ClientLanguage } from "../../../../api/client-languages";
import { useForm } from "@mantine/form";
import { useState } from "react";
import type { Project } from "../../../../api/types";
import { useVersionedEdit } from "../../lib/use-versioned-edit";
import { ClientLanguageSelect } from "../../ui/client-language-select";
import { ConflictAlert } from "../../ui/conflict-alert";
import { expiryError, fromLocalInput, passcodeError, toLocalInput } from "./expiry-input";
import type { DeliverySettingsChange } from "./use-delivery-actions";
import { DownloadChoicesFields } from "./download-choices-fields";
import { FavouritesLimitInput } from "../favourites";
import { t } from "../../i18n";

interface Props {
  /** The project as its page follows it live: fields the user has not touched follow it too. */
  project: Project;
  saving: boolean;
  /** PUT of the changed settings, with If-Match of `version` when given; answers the saved project. */
  onSave: (change: DeliverySettingsChange, version?: number) => Promise<Project>;
  /** The studio's language, named in the 'Studio default' choice; unknown until the studio is read. */
  studioLanguage?: ClientLanguage;
}

/** What the form holds: the expiry as the input shows it, a passcode only while one is typed. */
interface DeliveryFormValues {
  expiresAt: string;
  passcode: string;
  allowDownloads: boolean;
  offerWebSize: boolean;
  favouritesLimit: number | undefined;
  /** "" for the studio's language (null in the API): Mantine's Select keeps strings. */
  language: ClientLanguage | "";
}

const toValues = ({ delivery }: Project): DeliveryFormValues => ({
  expiresAt: toLocalInput(delivery.expiresAt),
  passcode: "",
  allowDownloads: delivery.allowDownloads,
  offerWebSize: delivery.offerWebSize,
  favouritesLimit: delivery.favouritesLimit ?? undefined,
  language: delivery.language ?? "",
});

const toPayload = (values: DeliveryFormValues): DeliverySettingsChange => ({
  expiresAt: fromLocalInput(values.expiresAt),
  passcode: values.passcode || null,
  allowDownloads: values.allowDownloads,
  offerWebSize: values.offerWebSize,
  favouritesLimit: values.favouritesLimit ?? null,
  language: values.language || null,
});

const labels = () => ({
  expiresAt: t("delivery.linkExpires"),
  passcode: t("delivery.passcode"),
  allowDownloads: t("delivery.allowDownloads"),
  offerWebSize: t("delivery.offerWebSizeDownloads"),
  favouritesLimit: t("favourites.favouritesLimit"),
  language: t("delivery.clientLanguage"),
});

const messageOf = (error: unknown) => (error as { message?: string })?.message || t("delivery.settingsNotSaved");

/**
 * Expiry, passcode and what the client may download; only what the user changed is sent, from the
 * version the form started with. A passcode is never shown again: blank keeps the current one.
 */
export function DeliverySettingsForm({ project, saving, onSave, studioLanguage }: Props) {
  const { delivery } = project;
  const form = useForm<DeliveryFormValues>({ initialValues: toValues(project) });
  const [error, setError] = useState<string | null>(null);
  const versioned = useVersionedEdit({
    form,
    toValues,
    toPayload,
    labels: labels(),
    send: (change, version) => onSave(change, version),
    initial: project,
    latest: project,
  });
  const { values } = form;
  const invalid = passcodeError(values.passcode);
  const expiryInvalid = expiryError(values.expiresAt);

  const failed = (err: unknown) => {
    console.error("Failed to save the delivery settings:", messageOf(err));
    setError(messageOf(err));
  };
  const save = () => {
    setError(null);
    versioned.save().catch(failed);
  };
  // Removing the passcode is one explicit change, whatever else changed meanwhile.
  const removePasscode = () => {
    setError(null);
    onSave({ passcode: null }).catch(failed);
  };

  return (
    <form
      aria-label={t("delivery.deliverySettings")}
      onSubmit={(event) => {
        event.preventDefault();
        if (invalid || expiryInvalid) return;
        save();
      }}
    >
      <Stack spacing="xs">
        <TextInput
          type="datetime-local"
          label={t("delivery.linkExpires")}
          description={t("delivery.leaveEmptyForALinkThat")}
          value={values.expiresAt}
          error={expiryInvalid}
          onChange={(event) => form.setFieldValue("expiresAt", event.currentTarget.value)}
        />
        <PasswordInput
          label={t("delivery.passcode")}
          description={delivery.hasPasscode ? t("delivery.aPasscodeIsSetTypeA") : t("delivery.optional4To64Characters")}
          placeholder={delivery.hasPasscode ? "••••••" : t("delivery.noPasscode")}
          autoComplete="new-password"
          value={values.passcode}
          error={invalid}
          onChange={(event) => form.setFieldValue("passcode", event.currentTarget.value)}
        />
        <DownloadChoicesFields
          value={{ allowDownloads: values.allowDownloads, offerWebSize: values.offerWebSize }}
          onChange={(choices) => form.setValues(choices)}
        />
        <FavouritesLimitInput
          value={values.favouritesLimit}
          onChange={(limit) => form.setFieldValue("favouritesLimit", limit)}
        />
        <ClientLanguageSelect
          label={t("delivery.clientLanguage")}
          description={t("delivery.clientLanguageHint")}
          before={[
            {
              value: "",
              label: studioLanguage
                ? t("delivery.studioDefaultNamed", { name: LANGUAGE_NAMES[studioLanguage] })
                : t("delivery.studioDefault"),
            },
          ]}
          value={values.language}
          onChange={(language) => form.setFieldValue("language", language as ClientLanguage | "")}
        />
        <ConflictAlert
          conflict={versioned.conflict}
          busy={versioned.saving}
          onApply={save}
          onDiscard={versioned.discardMine}
        />
        {error && (
          <Text size="sm" color="red">
            {error}
          </Text>
        )}
        <Group spacing="xs">
          <Button type="submit" loading={saving} disabled={Boolean(invalid || expiryInvalid)}>
            {t("delivery.saveDeliverySettings")}
          </Button>
          {delivery.hasPasscode && (
            <Button variant="default" color="red" disabled={saving} onClick={removePasscode}>
              {t("delivery.removePasscode")}
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}
