import { z } from "zod";
import { WEB_APP_LANGUAGES } from "../users/users.schema";
import { languageSchema } from "../i18n/language-schema";

/**
 * The API's answers as zod schemas, for the OpenAPI document and the contract checks. They mirror
 * api/types.ts and api/favourites.ts, which stay the declarations the code uses; type-checks.ts
 * makes tsc fail when the two drift apart. Each named schema is a component of the document.
 */
export const components = z.registry<{ id: string; description?: string }>();

function named<S extends z.ZodType>(schema: S, id: string, description?: string): S {
  components.add(schema, description ? { id, description } : { id });
  return schema;
}

export const dateTime = () => z.string().meta({ format: "date-time", description: "ISO 8601 date and time" });
const nullableDateTime = () => dateTime().nullable();

export const errorSchema = named(
  z.object({
    statusCode: z.number().int(),
    message: z.string(),
    errors: z.record(z.string(), z.string()).optional().describe("A message per field (or header) refused"),
  }),
  "Error",
  "Every refusal: the status again, a sentence, and for a 400 the message per field.",
);

const editorSchema = named(z.object({ uid: z.string(), name: z.string() }), "Editor");

const versioned = {
  version: z.number().int().describe('Counted up by each edit; also the ETag `"<version>"`, sent back as If-Match'),
  updatedBy: editorSchema.nullable(),
};

const roleSchema = named(z.enum(["admin", "staff"]), "Role");

export const userSchema = named(
  z.object({
    uid: z.string(),
    email: z.string(),
    displayName: z.string().nullable(),
    emailVerified: z.boolean(),
    phoneNumber: z.string().nullable(),
    photoURL: z.string().nullable(),
    providerData: z.array(z.object({ providerId: z.string() })),
    role: roleSchema,
    hasAccess: z.boolean(),
    language: z.enum(WEB_APP_LANGUAGES).describe("The web app's language this user chose in the user menu"),
    createdAt: dateTime(),
    updatedAt: dateTime(),
  }),
  "User",
);

export const accessRequestSchema = named(
  z.object({ message: z.string().nullable(), createdAt: dateTime() }),
  "AccessRequest",
);

export const managedUserSchema = named(
  userSchema.extend({
    ...versioned,
    accessRequest: accessRequestSchema.nullable(),
    access: z.enum(["approved", "pending", "revoked", "none"]),
    twoFactor: z.boolean().optional().describe("Two-factor sign-in is on (always sent)"),
  }),
  "ManagedUser",
);

export const sessionSchema = named(
  z.object({
    accessToken: z.string(),
    refreshToken: z.string().optional().describe("Absent when it was set as a cookie (browsers)"),
    expiresIn: z.number().int(),
    user: userSchema,
  }),
  "Session",
);

export const authConfigSchema = named(
  z.object({
    google: z.object({ clientId: z.string() }).nullable(),
    passwordPolicy: z.object({
      minLength: z.number().int(),
      maxLength: z.number().int().nullable(),
      requireUppercase: z.boolean(),
      requireLowercase: z.boolean(),
      requireNumeric: z.boolean(),
      requireNonAlphanumeric: z.boolean(),
    }),
    maxUploadBytes: z.number().int(),
    publicUrl: z.string().nullable(),
    passkeys: z.object({
      offered: z.boolean().describe("This page is a secure context at the studio's address: it may offer passkeys"),
      reason: z.string().nullable().describe("Why not, to show on the page; null when offered"),
    }),
  }),
  "AuthConfig",
);

export const jwksSchema = named(z.object({ keys: z.array(z.looseObject({ kty: z.string() })) }), "JsonWebKeySet");

export const messageSchema = named(z.object({ message: z.string() }), "Message");

export const accessSchema = named(z.object({ hasAccess: z.boolean(), role: roleSchema }), "Access");

export const accessRequestAnswerSchema = named(
  z.object({ hasAccess: z.boolean(), accessRequest: accessRequestSchema.nullable() }),
  "AccessRequestAnswer",
);

export const clientSchema = named(
  z.object({
    id: z.number().int(),
    name: z.string(),
    createdAt: dateTime(),
    updatedAt: dateTime(),
    projectCount: z.number().int(),
    contactCount: z.number().int(),
    ...versioned,
  }),
  "Client",
);

export const contactSchema = named(
  z.object({
    id: z.number().int(),
    clientId: z.number().int(),
    name: z.string(),
    email: z.string().nullable(),
    phoneNumber: z.string().nullable(),
    createdAt: dateTime(),
    updatedAt: dateTime(),
    ...versioned,
  }),
  "Contact",
);

export const deliverySettingsSchema = named(
  z.object({
    expiresAt: nullableDateTime(),
    hasPasscode: z.boolean(),
    views: z.number().int(),
    downloads: z.number().int(),
    lastDownloadAt: nullableDateTime(),
    allowDownloads: z.boolean(),
    offerWebSize: z.boolean(),
    favouritesLimit: z.number().int().nullable(),
    language: languageSchema.nullable(),
  }),
  "DeliverySettings",
);

export const projectSchema = named(
  z.object({
    id: z.number().int(),
    name: z.string(),
    description: z.string().nullable(),
    clientId: z.number().int().nullable(),
    client: z.object({ id: z.number().int(), name: z.string() }).nullable(),
    photoOrder: z.enum(["captured", "name", "uploaded"]),
    publishStatus: z.enum(["draft", "publishing", "published", "failed"]),
    publishedAt: nullableDateTime(),
    publishedZipPath: z.string().nullable(),
    downloadUrl: z.string().nullable(),
    publishError: z.string().nullable(),
    deliveryUrl: z.string().nullable().describe("The client's delivery page, `/d/<token>`, while published"),
    delivery: deliverySettingsSchema,
    coverAttachmentId: z.number().int().nullable(),
    attachmentCount: z.number().int(),
    totalFileSize: z.number().int(),
    createdAt: dateTime(),
    updatedAt: dateTime(),
    ...versioned,
  }),
  "Project",
);

export const attachmentSchema = named(
  z.object({
    id: z.number().int(),
    projectId: z.number().int(),
    originalName: z.string(),
    mimeType: z.string(),
    size: z.number().int(),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    checksum: z.string(),
    createdAt: dateTime(),
    updatedAt: dateTime(),
    viewUrl: z.string(),
    downloadUrl: z.string(),
    thumbnailUrl: z.string(),
    previewUrl: z.string(),
  }),
  "Attachment",
  "The four links carry a short-lived signature, so they work in an <img> or a new tab.",
);

export const projectWithAttachmentsSchema = named(
  projectSchema.extend({ attachments: z.array(attachmentSchema) }),
  "ProjectWithAttachments",
);

export const clientWithRelationsSchema = named(
  clientSchema.extend({ contacts: z.array(contactSchema), projects: z.array(projectSchema) }),
  "ClientWithRelations",
);

export const dashboardStatsSchema = named(
  z.object({
    clientCount: z.number().int(),
    projectCount: z.number().int(),
    attachmentCount: z.number().int(),
    totalFileSize: z.number(),
    diskUsage: z.object({ used: z.number(), total: z.number(), percentage: z.number() }).describe("GB"),
    location: z.union([
      z.object({ kind: z.literal("disk") }),
      z.object({ kind: z.literal("bucket"), bucket: z.string() }),
    ]),
    storage: z
      .object({ photosBytes: z.number(), zipsBytes: z.number(), freeBytes: z.number(), totalBytes: z.number() })
      .optional(),
  }),
  "DashboardStats",
);

export const sendingDraftSchema = named(
  z.object({
    subject: z.string(),
    message: z.string(),
    contacts: z.array(
      z.object({
        id: z.number().int(),
        name: z.string(),
        email: z.string(),
        unsubscribed: z.boolean(),
        valid: z.boolean(),
      }),
    ),
    hasPasscode: z.boolean(),
    linkHolders: z.number().int(),
    problem: z.string().nullable(),
  }),
  "SendingDraft",
);

export const sendResultSchema = named(
  z.object({
    sent: z.array(z.string()),
    failed: z.array(z.object({ email: z.string(), message: z.string() })),
    skipped: z.array(z.object({ email: z.string(), reason: z.string() })),
  }),
  "SendResult",
);

export const deliveryActivitySchema = named(
  z.object({
    id: z.number().int(),
    projectId: z.number().int(),
    type: z.enum([
      "sent",
      "reminder",
      "views",
      "download",
      "photo_download",
      "passcode_failures",
      "link_regenerated",
      "expired",
    ]),
    at: dateTime(),
    day: z.string().nullable(),
    count: z.number().int(),
    by: z.string().nullable(),
    recipients: z.array(z.string()),
    failed: z.array(z.string()),
    photo: z.string().nullable(),
    size: z.enum(["original", "web"]).nullable(),
    unused: z.boolean(),
  }),
  "DeliveryActivity",
);

export const reminderSettingsSchema = named(z.object({ days: z.number().int().nullable() }), "ReminderSettings");

export const notificationSettingsSchema = named(z.object({ deliveryMail: z.boolean() }), "NotificationSettings");

export const selectionNoticeSchema = named(
  z.object({
    visitorId: z.number().int(),
    projectId: z.number().int(),
    projectName: z.string(),
    visitorName: z.string(),
    photoCount: z.number().int(),
    sentAt: dateTime(),
  }),
  "SelectionNotice",
);

export const studioSettingsSchema = named(
  z.object({
    name: z.string(),
    logoUrl: z.string().nullable(),
    accentColor: z.string(),
    contactEmail: z.string().nullable(),
    contactPhone: z.string().nullable(),
    contactWebsite: z.string().nullable(),
    timeZone: z.string(),
    language: languageSchema,
    followBrowserLanguage: z.boolean(),
    requireTwoFactor: z
      .boolean()
      .optional()
      .describe("Everyone must turn on two-factor sign-in before anything else (always sent)"),
    updatedAt: nullableDateTime(),
    ...versioned,
  }),
  "StudioSettings",
);

export const apiTokenSchema = named(
  z.object({
    id: z.number().int(),
    name: z.string(),
    scope: z.enum(["read", "write", "admin"]),
    prefix: z.string(),
    expiresAt: nullableDateTime(),
    createdAt: dateTime(),
    lastUsedAt: nullableDateTime(),
    lastUsedAddress: z.string().nullable(),
    owner: z.object({ uid: z.string(), email: z.string() }),
  }),
  "ApiToken",
);

export const createdApiTokenSchema = named(
  apiTokenSchema
    .pick({ id: true, name: true, scope: true, expiresAt: true, createdAt: true })
    .extend({ token: z.string().describe("`pd_…`, shown this once") }),
  "CreatedApiToken",
);

export const favouriteVisitorSchema = named(
  z.object({
    id: z.number().int(),
    projectId: z.number().int(),
    name: z.string(),
    email: z.string(),
    count: z.number().int(),
    comments: z.number().int(),
    createdAt: dateTime(),
    changedAt: dateTime(),
    submittedAt: nullableDateTime(),
    sent: z.boolean(),
  }),
  "FavouriteVisitor",
);

export const favouriteSelectionSchema = named(
  favouriteVisitorSchema.extend({
    picks: z.array(
      z.object({
        attachmentId: z.number().int(),
        originalName: z.string(),
        comment: z.string().nullable(),
        thumbnailUrl: z.string(),
      }),
    ),
  }),
  "FavouriteSelection",
);

const visitor = z.object({ name: z.string(), email: z.string() });

export const visitorFavouritesSchema = named(
  z.object({
    limit: z.number().int().nullable(),
    visitor: visitor.nullable(),
    sent: z.boolean(),
    favourites: z.array(
      z.object({ n: z.number().int(), name: z.string(), ratio: z.number().nullable(), comment: z.string().nullable() }),
    ),
  }),
  "VisitorFavourites",
);

export const visitorAnswerSchema = named(z.object({ visitor }), "VisitorAnswer");

export const listStateSchema = named(z.object({ count: z.number().int(), sent: z.boolean() }), "FavouritesListState");

export const favouriteAnswerSchema = named(
  listStateSchema.extend({ n: z.number().int(), comment: z.string().nullable() }),
  "FavouriteAnswer",
);

export const galleryPartSchema = named(
  z.object({
    from: z.number().int(),
    total: z.number().int(),
    photos: z.array(z.object({ name: z.string(), ratio: z.number().nullable() })),
  }),
  "GalleryPart",
);

/** 412 of a versioned write: the refusal, the record as it is now, and who saved it. */
export const staleSchema = (current: z.ZodType) =>
  z.object({
    statusCode: z.literal(412),
    message: z.string(),
    current,
    changedBy: editorSchema.nullable(),
  });
