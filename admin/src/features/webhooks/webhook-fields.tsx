import { Checkbox, Stack, Textarea, TextInput } from "@mantine/core";
import type { HttpError } from "@refinedev/core";
import { WEBHOOK_EVENT_TYPES } from "../../../../api/webhooks";
import { t } from "../../i18n";

export interface WebhookFieldValues {
  url: string;
  events: string[];
  description: string;
}

/** What each event means, as catalogue keys (api/webhooks.ts says it in English for the API's reference). */
const EVENT_MEANINGS: Record<(typeof WEBHOOK_EVENT_TYPES)[number], string> = {
  "client.created": "webhooks.eventClientCreated",
  "project.created": "webhooks.eventProjectCreated",
  "project.published": "webhooks.eventProjectPublished",
  "project.unpublished": "webhooks.eventProjectUnpublished",
  "delivery.viewed": "webhooks.eventDeliveryViewed",
  "delivery.downloaded": "webhooks.eventDeliveryDownloaded",
  "favourites.submitted": "webhooks.eventFavouritesSubmitted",
  "access.requested": "webhooks.eventAccessRequested",
};

const fieldError = (error: HttpError | null, field: string): string | undefined => {
  const found = error?.errors?.[field];
  return typeof found === "string" ? found : Array.isArray(found) ? found.join(", ") : undefined;
};

/** Whether the server's refusal names one of these fields (shown there rather than as an alert). */
export const namesAField = (error: HttpError | null) =>
  ["url", "events", "description"].some((field) => fieldError(error, field) !== undefined);

/** URL, events and description: the fields the new and the edit dialogs share. */
export function WebhookFields({
  values,
  onChange,
  error,
}: {
  values: WebhookFieldValues;
  onChange: (values: WebhookFieldValues) => void;
  error: HttpError | null;
}) {
  return (
    <Stack spacing="sm">
      <TextInput
        label={t("webhooks.url")}
        description={t("webhooks.wherePhotodropSendsTheEventsE")}
        required
        type="url"
        maxLength={2000}
        value={values.url}
        onChange={(event) => onChange({ ...values, url: event.currentTarget.value })}
        error={fieldError(error, "url")}
        data-autofocus
      />
      <Checkbox.Group
        label={t("webhooks.events")}
        required
        orientation="vertical"
        spacing="xs"
        value={values.events}
        onChange={(events) => onChange({ ...values, events })}
        error={fieldError(error, "events")}
      >
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <Checkbox key={type} value={type} label={type} description={t(EVENT_MEANINGS[type])} />
        ))}
      </Checkbox.Group>
      <Textarea
        label={t("webhooks.description")}
        description={t("webhooks.optionalWhatListensThere")}
        maxLength={500}
        autosize
        minRows={1}
        value={values.description}
        onChange={(event) => onChange({ ...values, description: event.currentTarget.value })}
        error={fieldError(error, "description")}
      />
    </Stack>
  );
}
