import { Button, Group, PasswordInput, Stack, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useState } from "react";
import type { Project } from "../../../../api/types";
import { useVersionedEdit } from "../../lib/use-versioned-edit";
import { ConflictAlert } from "../../ui/conflict-alert";
import { expiryError, fromLocalInput, passcodeError, toLocalInput } from "./expiry-input";
import type { DeliverySettingsChange } from "./use-delivery-actions";
import { DownloadChoicesFields } from "./download-choices-fields";
import { FavouritesLimitInput } from "../favourites";

interface Props {
  /** The project as its page follows it live: fields the user has not touched follow it too. */
  project: Project;
  saving: boolean;
  /** PUT of the changed settings, with If-Match of `version` when given; answers the saved project. */
  onSave: (change: DeliverySettingsChange, version?: number) => Promise<Project>;
}

/** What the form holds: the expiry as the input shows it, a passcode only while one is typed. */
interface DeliveryFormValues {
  expiresAt: string;
  passcode: string;
  allowDownloads: boolean;
  offerWebSize: boolean;
  favouritesLimit: number | undefined;
}

const toValues = ({ delivery }: Project): DeliveryFormValues => ({
  expiresAt: toLocalInput(delivery.expiresAt),
  passcode: "",
  allowDownloads: delivery.allowDownloads,
  offerWebSize: delivery.offerWebSize,
  favouritesLimit: delivery.favouritesLimit ?? undefined,
});

const toPayload = (values: DeliveryFormValues): DeliverySettingsChange => ({
  expiresAt: fromLocalInput(values.expiresAt),
  passcode: values.passcode || null,
  allowDownloads: values.allowDownloads,
  offerWebSize: values.offerWebSize,
  favouritesLimit: values.favouritesLimit ?? null,
});

const LABELS = {
  expiresAt: "Link expires",
  passcode: "Passcode",
  allowDownloads: "Allow downloads",
  offerWebSize: "Offer web-size downloads",
  favouritesLimit: "Favourites limit",
};

const messageOf = (error: unknown) =>
  (error as { message?: string })?.message || "Could not save the delivery settings";

/**
 * Expiry, passcode and what the client may download; only what the user changed is sent, from the
 * version the form started with. A passcode is never shown again: blank keeps the current one.
 */
export function DeliverySettingsForm({ project, saving, onSave }: Props) {
  const { delivery } = project;
  const form = useForm<DeliveryFormValues>({ initialValues: toValues(project) });
  const [error, setError] = useState<string | null>(null);
  const versioned = useVersionedEdit({
    form,
    toValues,
    toPayload,
    labels: LABELS,
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
      aria-label="Delivery settings"
      onSubmit={(event) => {
        event.preventDefault();
        if (invalid || expiryInvalid) return;
        save();
      }}
    >
      <Stack spacing="xs">
        <TextInput
          type="datetime-local"
          label="Link expires"
          description="Leave empty for a link that does not expire"
          value={values.expiresAt}
          error={expiryInvalid}
          onChange={(event) => form.setFieldValue("expiresAt", event.currentTarget.value)}
        />
        <PasswordInput
          label="Passcode"
          description={
            delivery.hasPasscode ? "A passcode is set. Type a new one to replace it." : "Optional, 4 to 64 characters"
          }
          placeholder={delivery.hasPasscode ? "••••••" : "No passcode"}
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
            Save delivery settings
          </Button>
          {delivery.hasPasscode && (
            <Button variant="default" color="red" disabled={saving} onClick={removePasscode}>
              Remove passcode
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}
