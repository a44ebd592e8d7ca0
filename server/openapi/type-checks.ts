import type { z } from "zod";
import type * as T from "../../api/types";
import type * as F from "../../api/favourites";
import type * as S from "./schemas";
import type * as W from "../webhooks/webhooks.openapi";

/**
 * Compile-time only: each answer schema (schemas.ts) infers exactly the type api/types.ts declares,
 * so `tsc` fails when one changes without the other.
 */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Output<Schema extends z.ZodType> = z.output<Schema>;

export type SchemaMatchesTypes = [
  Same<Output<typeof S.userSchema>, T.User>,
  Same<Output<typeof S.managedUserSchema>, T.ManagedUser>,
  Same<Output<typeof S.clientSchema>, T.Client>,
  Same<Output<typeof S.clientWithRelationsSchema>, T.ClientWithRelations>,
  Same<Output<typeof S.contactSchema>, T.Contact>,
  Same<Output<typeof S.projectSchema>, T.Project>,
  Same<Output<typeof S.projectWithAttachmentsSchema>, T.ProjectWithAttachments>,
  Same<Output<typeof S.deliverySettingsSchema>, T.DeliverySettings>,
  Same<Output<typeof S.attachmentSchema>, T.Attachment>,
  Same<Output<typeof S.dashboardStatsSchema>, T.DashboardStats>,
  Same<Output<typeof S.sendingDraftSchema>, T.SendingDraft>,
  Same<Output<typeof S.sendResultSchema>, T.SendResult>,
  Same<Output<typeof S.deliveryActivitySchema>, T.DeliveryActivity>,
  Same<Output<typeof S.reminderSettingsSchema>, T.ReminderSettings>,
  Same<Output<typeof S.notificationSettingsSchema>, T.NotificationSettings>,
  Same<Output<typeof S.selectionNoticeSchema>, T.SelectionNotice>,
  Same<Output<typeof S.studioSettingsSchema>, T.StudioSettings>,
  Same<Output<typeof S.apiTokenSchema>, T.ApiToken>,
  Same<Output<typeof S.createdApiTokenSchema>, T.CreatedApiToken>,
  Same<Output<typeof S.accessRequestSchema>, T.AccessRequest>,
  Same<Output<typeof W.webhookAttemptSchema>, T.WebhookAttempt>,
  Same<Output<typeof S.favouriteVisitorSchema>, F.FavouriteVisitor>,
  Same<Output<typeof S.favouriteSelectionSchema>, F.FavouriteSelection>,
  Same<Output<typeof S.visitorFavouritesSchema>, F.VisitorFavourites>,
];

// Fails to compile when any entry above is false.
export const schemasMatchTypes: SchemaMatchesTypes extends true[] ? true : never = true;
