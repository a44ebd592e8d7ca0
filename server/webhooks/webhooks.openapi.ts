import { z } from "zod";
import { noContent, ok, routesOf } from "../openapi/operation";
import { components, dateTime } from "../openapi/schemas";
import { WEBHOOK_EVENT_TYPES } from "../../api/webhooks";
import { createWebhookSchema, updateWebhookSchema } from "./webhooks.schema";

/** The webhook routes as the OpenAPI document describes them (server/openapi/catalogue.ts lists them). */

const webhookSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  description: z.string().nullable(),
  active: z.boolean().describe("false once turned off, by an admin or after 3 days of failures"),
  createdAt: dateTime(),
  updatedAt: dateTime(),
});
components.add(webhookSchema, { id: "Webhook" });

const webhookWithSecretSchema = webhookSchema.extend({
  secret: z.string().describe("`whsec_` and the base64 signing key (Standard Webhooks), shown this once"),
});
components.add(webhookWithSecretSchema, { id: "WebhookWithSecret" });

export const webhookAttemptSchema = z.object({
  id: z.number().int(),
  attemptedAt: dateTime(),
  eventType: z.string(),
  eventId: z.string().describe("The `webhook-id` sent, the same on every retry"),
  status: z.number().int().nullable().describe("The receiver's HTTP status; null when no answer came"),
  ok: z.boolean(),
  durationMs: z.number().int(),
  response: z.string().nullable().describe("The first 200 characters of the answer, or what went wrong"),
});
components.add(webhookAttemptSchema, { id: "WebhookAttempt" });

export const webhookOperations = routesOf("Webhooks", "admin", [
  {
    method: "get",
    path: "/api/webhooks",
    summary: "Every webhook endpoint (secrets never listed)",
    answers: [{ status: 200, description: "Every endpoint", schema: z.array(webhookSchema), total: true }],
  },
  {
    method: "post",
    path: "/api/webhooks",
    summary: "Create a webhook endpoint (its secret shown this once)",
    description:
      "A URL whose host is a link-local or metadata address is refused; a loopback or private one unless WEBHOOK_ALLOW_PRIVATE=1.",
    body: { json: createWebhookSchema },
    answers: [{ status: 201, description: "Created", schema: webhookWithSecretSchema }],
  },
  {
    method: "get",
    path: "/api/webhooks/:id",
    summary: "One webhook endpoint",
    answers: [ok(webhookSchema, "The endpoint")],
  },
  {
    method: "patch",
    path: "/api/webhooks/:id",
    summary: "Change an endpoint; `rotateSecret: true` answers a new secret this once",
    body: { json: updateWebhookSchema },
    answers: [
      {
        status: 200,
        description: "The endpoint (with `secret` when rotated)",
        schema: webhookWithSecretSchema.partial({ secret: true }),
      },
    ],
  },
  {
    method: "delete",
    path: "/api/webhooks/:id",
    summary: "Delete an endpoint with its attempts",
    answers: [noContent],
  },
  {
    method: "post",
    path: "/api/webhooks/:id/test",
    summary: "Send a `webhook.test` event to this endpoint (409 while it is turned off)",
    answers: [{ status: 202, description: "Queued", schema: z.object({ eventId: z.string() }) }],
    errors: [409],
  },
  {
    method: "get",
    path: "/api/webhooks/:id/attempts",
    summary: "The endpoint's last 100 attempts, the latest first",
    answers: [{ status: 200, description: "The attempts", schema: z.array(webhookAttemptSchema), total: true }],
  },
  {
    method: "post",
    path: "/api/webhooks/:id/attempts/:attemptId/retry",
    summary: "'Send again': the attempt's event to the endpoint once more, with the same webhook-id",
    answers: [{ status: 202, description: "Queued", schema: z.object({ queued: z.boolean() }) }],
    errors: [409],
  },
]);
