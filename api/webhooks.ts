/**
 * Webhook event types, shared: the server's schema accepts these and the web app offers them.
 * Plain code, safe in either.
 */

/** What an endpoint may subscribe to; `webhook.test` is only ever sent by 'Send test event'. */
export const WEBHOOK_EVENT_TYPES = [
  "client.created",
  "project.created",
  "project.published",
  "project.unpublished",
  "delivery.viewed",
  "delivery.downloaded",
  "favourites.submitted",
  "access.requested",
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number] | "webhook.test";

/** One line each, as the web app shows them next to the event's name. */
export const WEBHOOK_EVENT_MEANINGS: Record<(typeof WEBHOOK_EVENT_TYPES)[number], string> = {
  "client.created": "A client was added",
  "project.created": "A project was added",
  "project.published": "A gallery was published",
  "project.unpublished": "A gallery was taken down",
  "delivery.viewed": "A visitor opened a gallery (first view each day)",
  "delivery.downloaded": "A visitor downloaded photos",
  "favourites.submitted": "A client sent their selection",
  "access.requested": "A visitor asked for access to a gallery",
};
