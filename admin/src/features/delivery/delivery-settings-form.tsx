import { useState } from "react";
import { Button, Group, PasswordInput, Stack, Text, TextInput } from "@mantine/core";
import type { Project } from "../../../../api/types";
import { expiryError, fromLocalInput, passcodeError, toLocalInput } from "./expiry-input";
import type { DeliverySettingsChange } from "./use-delivery-actions";
import { changedChoices, DownloadChoicesFields } from "./download-choices-fields";
import { FavouritesLimitInput, favouritesLimitChange } from "../favourites";

interface Props {
  project: Project;
  saving: boolean;
  onSave: (change: DeliverySettingsChange) => Promise<unknown>;
}

const messageOf = (error: unknown) =>
  (error as { message?: string })?.message || "Could not save the delivery settings";

/** Expiry, passcode and what the client may download. A passcode is never shown again: blank keeps the current one. */
export function DeliverySettingsForm({ project, saving, onSave }: Props) {
  const { delivery } = project;
  const [expiry, setExpiry] = useState(toLocalInput(delivery.expiresAt));
  const [passcode, setPasscode] = useState("");
  const [favouritesLimit, setFavouritesLimit] = useState(delivery.favouritesLimit ?? undefined);
  const [error, setError] = useState<string | null>(null);
  const savedChoices = { allowDownloads: delivery.allowDownloads, offerWebSize: delivery.offerWebSize };
  const [choices, setChoices] = useState(savedChoices);
  const invalid = passcodeError(passcode);
  const expiryInvalid = expiryError(expiry);

  const send = (change: DeliverySettingsChange) => {
    setError(null);
    onSave(change).then(
      () => setPasscode(""),
      (err: unknown) => {
        console.error("Failed to save the delivery settings:", messageOf(err));
        setError(messageOf(err));
      },
    );
  };

  return (
    <form
      aria-label="Delivery settings"
      onSubmit={(event) => {
        event.preventDefault();
        if (invalid || expiryInvalid) return;
        send({
          expiresAt: fromLocalInput(expiry),
          ...(passcode ? { passcode } : {}),
          ...changedChoices(savedChoices, choices),
          ...favouritesLimitChange(delivery.favouritesLimit, favouritesLimit),
        });
      }}
    >
      <Stack spacing="xs">
        <TextInput
          type="datetime-local"
          label="Link expires"
          description="Leave empty for a link that does not expire"
          value={expiry}
          error={expiryInvalid}
          onChange={(event) => setExpiry(event.currentTarget.value)}
        />
        <PasswordInput
          label="Passcode"
          description={
            delivery.hasPasscode ? "A passcode is set. Type a new one to replace it." : "Optional, 4 to 64 characters"
          }
          placeholder={delivery.hasPasscode ? "••••••" : "No passcode"}
          autoComplete="new-password"
          value={passcode}
          error={invalid}
          onChange={(event) => setPasscode(event.currentTarget.value)}
        />
        <DownloadChoicesFields value={choices} onChange={setChoices} />
        <FavouritesLimitInput value={favouritesLimit} onChange={setFavouritesLimit} />
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
            <Button variant="default" color="red" disabled={saving} onClick={() => send({ passcode: null })}>
              Remove passcode
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}
