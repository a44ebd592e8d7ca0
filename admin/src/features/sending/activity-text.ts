import type { DeliveryActivity } from "../../../../api/types";
import { t } from "../../i18n";
import { formatDate } from "../../lib/format";

const names = (list: string[]) => list.join(", ");

// Which size a download was (not recorded before the web size was told apart: "unknown").
const ZIP_TITLES = {
  original: "activity.zipOriginal",
  web: "activity.zipWeb",
  unknown: "activity.zipUnknown",
} as const;
const PHOTO_TITLES = {
  original: "activity.photoOriginal",
  web: "activity.photoWeb",
  unknown: "activity.photoUnknown",
} as const;

const onDay = (day: string | null | undefined) =>
  day ? t("activity.onDay", { date: formatDate(`${day}T12:00:00Z`) }) : null;

/** What one timeline entry says: a title, and a line of detail when there is more to tell. */
export function describeActivity(entry: DeliveryActivity): { title: string; detail: string | null } {
  const by = entry.recipients.length > 0 ? t("activity.by", { names: names(entry.recipients) }) : null;
  const someone = entry.by ?? t("activity.formerUser");
  switch (entry.type) {
    case "sent": {
      const to =
        entry.recipients.length > 0 ? t("activity.to", { names: names(entry.recipients) }) : t("activity.toNobody");
      const failed = entry.failed.length > 0 ? t("activity.notDelivered", { names: names(entry.failed) }) : "";
      return { title: t("activity.sentBy", { name: someone }), detail: `${to}${failed}` };
    }
    case "reminder":
      return { title: t("activity.reminderSent"), detail: t("activity.to", { names: names(entry.recipients) }) };
    case "views":
      return { title: t("activity.pageViews", { count: entry.count }), detail: onDay(entry.day) };
    case "download":
      return { title: t(ZIP_TITLES[entry.size ?? "unknown"]), detail: by };
    case "photo_download":
      return { title: `${t(PHOTO_TITLES[entry.size ?? "unknown"])}: ${entry.photo ?? ""}`, detail: by };
    case "passcode_failures":
      return { title: t("activity.wrongPasscodes", { count: entry.count }), detail: onDay(entry.day) };
    case "link_regenerated":
      return { title: t("activity.linkRegeneratedBy", { name: someone }), detail: t("activity.earlierLinkStopped") };
    case "expired":
      return { title: entry.unused ? t("activity.linkExpiredUnused") : t("activity.linkExpired"), detail: null };
    default:
      return { title: String(entry.type), detail: null };
  }
}
