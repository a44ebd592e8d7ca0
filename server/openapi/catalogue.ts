import { z } from "zod";
import { apiTokenRequestSchema } from "../api-tokens/api-tokens.schema";
import { attachmentListSpec } from "../attachments/attachments.repository";
import { bulkDeleteSchema, projectDeleteSchema, renameAttachmentSchema } from "../attachments/attachments.schema";
import {
  googleSchema,
  loginSchema,
  refreshSchema,
  resetConfirmSchema,
  resetRequestSchema,
  signupSchema,
} from "../auth/auth.schema";
import { clientListSpec } from "../clients/clients.repository";
import { createClientSchema, updateClientSchema } from "../clients/clients.schema";
import { contactListSpec } from "../contacts/contacts.repository";
import { createContactSchema, updateContactSchema } from "../contacts/contacts.schema";
import {
  deliverySettingsSchema as deliveryChangeSchema,
  galleryPartSchema as galleryQuery,
} from "../delivery/delivery.schema";
import { favouriteSchema, visitorSchema } from "../favourites/favourites.schema";
import type { ListSpec } from "../http/list-query";
import { notificationSettingsSchema as notificationChangeSchema } from "../notifications/notifications.schema";
import { projectListSpec } from "../projects/projects.repository";
import { coverSchema, createProjectSchema, updateProjectSchema } from "../projects/projects.schema";
import { publishOptionsSchema } from "../publish/publish.router";
import { reminderSettingsSchema as reminderChangeSchema } from "../reminders/reminders.schema";
import { sendSchema } from "../sending/sending.schema";
import { studioChangeSchema } from "../studio/studio.schema";
import { usersListSpec } from "../users/users.repository";
import {
  accessFilterSchema,
  accessRequestSchema as accessRequestBody,
  profileSchema,
  userChangeSchema,
} from "../users/users.schema";
import { noContent, ok, routesOf, type Answer, type Operation, type Route } from "./operation";
import * as S from "./schemas";
import { webhookOperations } from "../webhooks/webhooks.openapi";
import { twoFactorOperations, twoFactorRequiredSchema } from "../two-factor/two-factor.openapi";
import { sessionOperations } from "../sessions/sessions.openapi";
import { passkeyOperations } from "../passkeys/passkeys.openapi";

const record = (schema: z.ZodType, status = 200, description = "The record"): Answer => ({
  status,
  description,
  schema,
  etag: true,
});
const list = (schema: z.ZodType, description = "A page of the list"): Answer => ({
  status: 200,
  description,
  schema: z.array(schema),
  total: true,
});

/** A route answering PUT and PATCH alike (both take the fields sent). */
const putAndPatch = (route: Omit<Route, "method">): Route[] =>
  (["put", "patch"] as const).map((method) => ({ ...route, method }));

/** The activity timeline reads only the window. */
const WINDOW_ONLY: ListSpec = { sortable: {}, filterable: {}, defaultSort: [] };

/** The five calls of a plain resource (server/http/crud-router.ts), PUT and PATCH alike partial. */
function crud(
  base: string,
  tag: string,
  names: { one: string; many: string },
  spec: { list: ListSpec; create: z.ZodType; update: z.ZodType; item: z.ZodType; full: z.ZodType },
  errors: { remove?: number[]; update?: number[] } = {},
): Operation[] {
  const update = (method: "put" | "patch"): Route => ({
    method,
    path: `${base}/:id`,
    summary: `Change a ${names.one} (${method === "put" ? "PUT" : "PATCH"}: the fields sent)`,
    body: { json: spec.update },
    ifMatch: spec.full,
    answers: [record(spec.item)],
    errors: errors.update,
  });
  return routesOf(tag, "staff", [
    {
      method: "get",
      path: base,
      summary: `List ${names.many}`,
      list: spec.list,
      answers: [list(spec.item)],
    },
    {
      method: "post",
      path: base,
      summary: `Create a ${names.one}`,
      body: { json: spec.create },
      answers: [record(spec.item, 201, "Created")],
    },
    { method: "get", path: `${base}/:id`, summary: `Get a ${names.one}`, answers: [record(spec.full)] },
    update("put"),
    update("patch"),
    {
      method: "delete",
      path: `${base}/:id`,
      summary: `Delete a ${names.one}`,
      answers: [noContent],
      errors: errors.remove,
    },
  ]);
}

const auth: Operation[] = [
  ...routesOf("Identity", "public", [
    {
      method: "get",
      path: "/api/auth/config",
      summary: "What the sign-in page needs",
      answers: [ok(S.authConfigSchema)],
    },
    {
      method: "get",
      path: "/api/auth/jwks.json",
      summary: "The public keys that verify sign-in tokens",
      answers: [ok(S.jwksSchema)],
    },
    {
      method: "post",
      path: "/api/auth/signup",
      summary: "Create an account",
      body: { json: signupSchema },
      answers: [{ status: 201, description: "Signed up and in", schema: S.sessionSchema }],
      errors: [409, 429],
    },
    {
      method: "post",
      path: "/api/auth/login",
      summary: "Sign in with e-mail and password",
      description:
        "For an account with two-factor sign-in, no session but `{twoFactorRequired, challenge}`: " +
        "send the challenge and a code to POST /api/auth/login/two-factor.",
      body: { json: loginSchema },
      answers: [ok(z.union([S.sessionSchema, twoFactorRequiredSchema]), "Signed in, or the second step is due")],
      errors: [401, 429],
    },
    {
      method: "post",
      path: "/api/auth/google",
      summary: "Sign in with a Google ID token",
      description:
        "404 when Google sign-in is not configured. Never asks for Photodrop's second step: it relies on " +
        "the Google account's own (turn on Google's 2-Step Verification).",
      body: { json: googleSchema },
      answers: [ok(S.sessionSchema, "Signed in")],
      errors: [401, 403, 404, 429],
    },
    {
      method: "post",
      path: "/api/auth/refresh",
      summary: "A new access token for a refresh token",
      description: "The refresh token in the body (scripts) or the session cookie (browsers).",
      body: { json: refreshSchema, required: false },
      answers: [ok(S.sessionSchema)],
      errors: [401, 429],
    },
    {
      method: "post",
      path: "/api/auth/logout",
      summary: "End the session of a refresh token",
      body: { json: refreshSchema, required: false },
      answers: [noContent],
    },
    {
      method: "post",
      path: "/api/auth/password-reset",
      summary: "Mail a password reset link",
      body: { json: resetRequestSchema },
      answers: [{ status: 202, description: "Accepted, whether or not the account exists", schema: S.messageSchema }],
      errors: [429],
    },
    {
      method: "post",
      path: "/api/auth/password-reset/confirm",
      summary: "Set a new password with a reset token",
      body: { json: resetConfirmSchema },
      answers: [noContent],
      errors: [401, 429],
    },
  ]),
];

const me: Operation[] = [
  ...routesOf("Me", "signedIn", [
    {
      method: "get",
      path: "/api/users/me",
      summary: "The signed-in user",
      answers: [ok(S.userSchema)],
    },
    ...putAndPatch({
      path: "/api/users/me",
      summary: "Change one's own profile",
      body: { json: profileSchema },
      answers: [ok(S.userSchema)],
    }),
    {
      method: "get",
      path: "/api/users/me/access",
      summary: "Whether the signed-in user is approved, and their role",
      answers: [ok(S.accessSchema)],
    },
    {
      method: "post",
      path: "/api/users/me/request-access",
      summary: "Ask the admins for access",
      body: { json: accessRequestBody, required: false },
      answers: [
        { status: 201, description: "Asked", schema: S.accessRequestAnswerSchema },
        ok(S.accessRequestAnswerSchema, "Already asked, or already approved"),
      ],
    },
  ]),
  ...routesOf("Me", "staff", [
    {
      method: "get",
      path: "/api/users/me/notifications",
      summary: "One's own delivery mails, on or off",
      answers: [ok(S.notificationSettingsSchema)],
    },
    ...putAndPatch({
      path: "/api/users/me/notifications",
      summary: "Turn one's own delivery mails on or off",
      body: { json: notificationChangeSchema },
      answers: [ok(S.notificationSettingsSchema)],
    }),
    {
      method: "get",
      path: "/api/users/me/notifications/selections",
      summary: "Selections clients sent, as the bell lists them",
      answers: [ok(z.array(S.selectionNoticeSchema))],
    },
  ]),
  ...routesOf("API tokens", "signIn", [
    {
      method: "get",
      path: "/api/users/me/tokens",
      summary: "One's own API tokens",
      answers: [list(S.apiTokenSchema, "Every token of the user")],
    },
    {
      method: "post",
      path: "/api/users/me/tokens",
      summary: "Create an API token (shown this once)",
      body: { json: apiTokenRequestSchema },
      answers: [{ status: 201, description: "Created", schema: S.createdApiTokenSchema }],
      errors: [409],
    },
    {
      method: "delete",
      path: "/api/users/me/tokens/:id",
      summary: "Delete one of one's own API tokens",
      answers: [noContent],
    },
  ]),
];

const admin: Operation[] = [
  ...routesOf("API tokens", "admin", [
    {
      method: "get",
      path: "/api/tokens",
      summary: "Everyone's API tokens",
      description: "Sign-in only: API tokens are refused.",
      answers: [list(S.apiTokenSchema, "Every token")],
    },
    {
      method: "delete",
      path: "/api/tokens/:id",
      summary: "Delete anyone's API token",
      description: "Sign-in only: API tokens are refused.",
      answers: [noContent],
    },
  ]),
  ...routesOf("Users", "admin", [
    {
      method: "get",
      path: "/api/users",
      summary: "List users",
      list: usersListSpec,
      query: accessFilterSchema,
      answers: [list(S.managedUserSchema)],
    },
    {
      method: "get",
      path: "/api/users/:uid",
      summary: "Get a user",
      answers: [record(S.managedUserSchema)],
    },
    ...putAndPatch({
      path: "/api/users/:uid",
      summary: "Approve, revoke, or change a user's role",
      body: { json: userChangeSchema },
      ifMatch: S.managedUserSchema,
      answers: [record(S.managedUserSchema)],
      errors: [409],
    }),
  ]),
];

const resources: Operation[] = [
  ...crud(
    "/api/clients",
    "Clients",
    { one: "client", many: "clients" },
    {
      list: clientListSpec,
      create: createClientSchema,
      update: updateClientSchema,
      item: S.clientSchema,
      full: S.clientWithRelationsSchema,
    },
  ),
  ...crud(
    "/api/contacts",
    "Contacts",
    { one: "contact", many: "contacts" },
    {
      list: contactListSpec,
      create: createContactSchema,
      update: updateContactSchema,
      item: S.contactSchema,
      full: S.contactSchema,
    },
  ),
  ...crud(
    "/api/projects",
    "Projects",
    { one: "project", many: "projects" },
    {
      list: projectListSpec,
      create: createProjectSchema,
      update: updateProjectSchema,
      item: S.projectSchema,
      full: S.projectWithAttachmentsSchema,
    },
    { remove: [409], update: [409] },
  ),
];

const projectParts: Operation[] = [
  ...routesOf("Delivery", "staff", [
    {
      method: "get",
      path: "/api/projects/:id/sending",
      summary: "What the 'Send to client' dialog opens with",
      answers: [ok(S.sendingDraftSchema)],
    },
    {
      method: "post",
      path: "/api/projects/:id/sending",
      summary: "Mail the delivery link to the client's contacts and addresses",
      body: { json: sendSchema },
      answers: [ok(S.sendResultSchema, "One outcome per recipient")],
      errors: [409, 429],
    },
    {
      method: "get",
      path: "/api/projects/:id/activity",
      summary: "The delivery activity timeline, newest first",
      list: WINDOW_ONLY,
      answers: [list(S.deliveryActivitySchema)],
    },
    {
      method: "get",
      path: "/api/projects/:id/reminders",
      summary: "The expiry reminder",
      answers: [ok(S.reminderSettingsSchema)],
    },
    ...putAndPatch({
      path: "/api/projects/:id/reminders",
      summary: "Set the expiry reminder",
      body: { json: reminderChangeSchema },
      answers: [ok(S.reminderSettingsSchema)],
    }),
  ]),
  ...routesOf("Favourites", "staff", [
    {
      method: "get",
      path: "/api/projects/:id/favourites",
      summary: "The visitors who chose favourites",
      answers: [list(S.favouriteVisitorSchema, "Every visitor")],
    },
    {
      method: "get",
      path: "/api/projects/:id/favourites/:visitorId",
      summary: "One visitor's favourites",
      answers: [ok(S.favouriteSelectionSchema)],
    },
  ]),
  ...routesOf("Projects", "staff", [
    {
      method: "put",
      path: "/api/projects/:id/cover",
      summary: "Choose the delivery page's cover photo (null: the first)",
      body: { json: coverSchema },
      answers: [record(S.projectSchema, 200, "The project")],
    },
  ]),
  ...routesOf("Delivery", "staff", [
    {
      method: "put",
      path: "/api/projects/:id/delivery",
      summary: "Change the delivery link's settings",
      body: { json: deliveryChangeSchema },
      ifMatch: S.projectWithAttachmentsSchema,
      answers: [record(S.projectSchema, 200, "The project")],
    },
    {
      method: "post",
      path: "/api/projects/:id/delivery/regenerate",
      summary: "A new delivery link; the old one stops working",
      answers: [record(S.projectSchema, 200, "The project")],
      errors: [409],
    },
    {
      method: "post",
      path: "/api/projects/:id/publish",
      summary: "Publish: build the ZIP and open the delivery link",
      body: { json: publishOptionsSchema, required: false },
      answers: [{ status: 202, description: "Publishing has started", schema: S.projectSchema }],
      errors: [409],
    },
    {
      method: "delete",
      path: "/api/projects/:id/publish",
      summary: "Unpublish: close the delivery link",
      answers: [ok(S.projectSchema, "The project, a draft again")],
    },
    {
      method: "get",
      path: "/api/projects/:id/download",
      summary: "The published ZIP",
      answers: [{ status: 302, description: "To the ZIP's address", location: true }],
      errors: [409],
    },
  ]),
];

const attachments: Operation[] = [
  ...routesOf("Photos", "staff", [
    {
      method: "post",
      path: "/api/attachments/projects/:id/upload",
      summary: "Upload one photo",
      body: { multipart: "file" },
      answers: [{ status: 201, description: "Stored", schema: S.attachmentSchema }],
      errors: [409, 413, 415],
    },
    {
      method: "post",
      path: "/api/attachments/projects/:id/upload-multiple",
      summary: "Upload up to 200 photos",
      body: { multipart: "files" },
      answers: [{ status: 201, description: "Stored", schema: z.array(S.attachmentSchema) }],
      errors: [409, 413, 415],
    },
    {
      method: "get",
      path: "/api/attachments",
      summary: "List photos (filter by projectId)",
      list: attachmentListSpec,
      answers: [list(S.attachmentSchema)],
    },
    {
      method: "delete",
      path: "/api/attachments",
      summary: "Delete photos: by ids, or a project's all but some",
      body: { json: z.union([bulkDeleteSchema, projectDeleteSchema]) },
      answers: [noContent],
      errors: [409],
    },
    {
      method: "get",
      path: "/api/attachments/:id",
      summary: "Get a photo's record",
      answers: [ok(S.attachmentSchema)],
    },
    ...putAndPatch({
      path: "/api/attachments/:id",
      summary: "Rename a photo",
      body: { json: renameAttachmentSchema },
      answers: [ok(S.attachmentSchema)],
      errors: [409],
    }),
    {
      method: "delete",
      path: "/api/attachments/:id",
      summary: "Delete a photo",
      answers: [noContent],
      errors: [409],
    },
  ]),
  ...routesOf("Photos", "signedLink", [
    ...(["view", "download", "thumbnail", "preview"] as const).map((kind): Route => ({
      method: "get",
      path: `/api/attachments/:id/${kind}`,
      summary: `The photo's ${kind === "view" || kind === "download" ? "original" : kind}`,
      answers: [
        { status: 200, description: "The file", file: "image/*" },
        { status: 206, description: "The byte range asked for (Range)", file: "image/*" },
        { status: 304, description: "Not modified (If-None-Match)" },
        ...(kind === "download"
          ? [{ status: 302, description: "To the file in object storage (a presigned link)", location: true }]
          : []),
      ],
      errors: [401, 403, 404, 412, 416],
    })),
  ]),
];

const studio: Operation[] = [
  ...routesOf("Studio", "staff", [
    {
      method: "get",
      path: "/api/dashboard/stats",
      summary: "Counts and storage",
      answers: [ok(S.dashboardStatsSchema)],
    },
    {
      method: "get",
      path: "/api/studio/settings",
      summary: "The studio's branding",
      answers: [record(S.studioSettingsSchema, 200, "The settings")],
    },
  ]),
  ...routesOf("Studio", "admin", [
    ...putAndPatch({
      path: "/api/studio/settings",
      summary: "Change the studio's branding",
      body: { json: studioChangeSchema },
      ifMatch: S.studioSettingsSchema,
      answers: [record(S.studioSettingsSchema, 200, "The settings")],
    }),
    {
      method: "put",
      path: "/api/studio/logo",
      summary: "Replace the logo (the image's bytes as the body)",
      body: { binary: "image/*" },
      answers: [record(S.studioSettingsSchema, 200, "The settings")],
      errors: [413, 415],
    },
    {
      method: "delete",
      path: "/api/studio/logo",
      summary: "Remove the logo",
      answers: [record(S.studioSettingsSchema, 200, "The settings")],
    },
  ]),
];

/** The document's outline; its full shape is OpenAPI 3.1's own schema. */
const openApiShape = z.looseObject({
  openapi: z.literal("3.1.0"),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.looseObject({})),
});

const document: Operation[] = [
  {
    method: "get",
    path: "/api/openapi.json",
    tag: "Reference",
    access: "public",
    summary: "This document",
    answers: [ok(openApiShape, "OpenAPI 3.1")],
  },
];

/** A delivery page's script: answered as its photos are (404, 410 expired, 401 without the passcode's cookie, 429, 503 while being updated). */
const VISITOR_ERRORS = [401, 404, 410, 429, 503];

const visitor: Operation[] = [
  ...routesOf("Delivery page", "visitor", [
    {
      method: "get",
      path: "/d/:token/photos",
      summary: "A part of the gallery from the n-th photo",
      query: galleryQuery,
      answers: [ok(S.galleryPartSchema)],
      errors: VISITOR_ERRORS,
    },
    {
      method: "get",
      path: "/d/:token/favourites",
      summary: "The visitor's own favourites",
      answers: [ok(S.visitorFavouritesSchema)],
      errors: VISITOR_ERRORS,
    },
    {
      method: "post",
      path: "/d/:token/favourites/visitor",
      summary: "Who is choosing (sets the visitor's cookie)",
      body: { json: visitorSchema },
      answers: [
        { status: 201, description: "A new visitor", schema: S.visitorAnswerSchema },
        ok(S.visitorAnswerSchema, "The visitor, changed"),
      ],
      errors: VISITOR_ERRORS,
    },
    {
      method: "post",
      path: "/d/:token/favourites/submit",
      summary: "Send the list to the studio",
      answers: [ok(S.listStateSchema)],
      errors: [...VISITOR_ERRORS, 409],
    },
    {
      method: "put",
      path: "/d/:token/favourites/:n",
      summary: "Choose the n-th photo, with a comment",
      body: { json: favouriteSchema, required: false },
      answers: [ok(S.favouriteAnswerSchema)],
      errors: [...VISITOR_ERRORS, 409],
    },
    {
      method: "delete",
      path: "/d/:token/favourites/:n",
      summary: "Take the n-th photo off the list",
      answers: [ok(S.listStateSchema)],
      errors: VISITOR_ERRORS,
    },
  ]),
];

/** Every route the document describes, in the order it lists them. */
export const operations: Operation[] = [
  ...auth,
  ...me,
  ...admin,
  ...resources,
  ...projectParts,
  ...attachments,
  ...studio,
  ...document,
  ...visitor,
  ...webhookOperations,
  ...twoFactorOperations,
  ...sessionOperations,
  ...passkeyOperations,
];
