import { useState } from "react";
import { Anchor, Box, Text } from "@mantine/core";
import { useCustom, useSubscription } from "@refinedev/core";
import { Link } from "react-router";
import type { SelectionNotice } from "../../../../api/types";
import { t } from "../../i18n";

const URL = "/users/me/notifications/selections";
const SEEN_KEY = "photodrop.selectionsSeenAt";

/** "<visitor> sent their selection of N photos for <project>". */
const selectionSentence = (notice: SelectionNotice) =>
  t("sending.selectionSent", { name: notice.visitorName, count: notice.photoCount, project: notice.projectName });

const seenAt = () => {
  try {
    return localStorage.getItem(SEEN_KEY) ?? "";
  } catch {
    return "";
  }
};

/**
 * The selections clients sent, live (a send announces the project's favourites), and how many
 * arrived since the list was last opened in this browser.
 */
export function useSelectionNotices() {
  const { result, query } = useCustom<SelectionNotice[]>({ url: URL, method: "get", errorNotification: false });
  useSubscription({
    channel: "resources/favourites",
    types: ["updated"],
    onLiveEvent: () => void query.refetch(),
  });
  // Before the first answer (and after a failed one) the result holds no list.
  const data: unknown = result.data;
  const notices = Array.isArray(data) ? (data as SelectionNotice[]) : [];
  const [seen, setSeen] = useState(seenAt);
  const newest = notices[0]?.sentAt ?? "";
  /** The list was looked at: what it shows now is no longer new. */
  const markSeen = () => {
    if (!newest || newest <= seen) return;
    try {
      localStorage.setItem(SEEN_KEY, newest);
    } catch {
      // Private mode: the count shows again next time.
    }
    setSeen(newest);
  };
  return { notices, unseen: notices.filter((n) => n.sentAt > seen).length, markSeen };
}

/** The bell's list: each received selection, a link to its project's Favourites card. */
export function SelectionNoticeList({ notices, onOpen }: { notices: SelectionNotice[]; onOpen: () => void }) {
  if (notices.length === 0)
    return (
      <Text size="sm" color="dimmed">
        {t("sending.noSelectionsFromClientsYet")}
      </Text>
    );
  return (
    <Box
      component="ul"
      sx={{ display: "grid", gap: 6, listStyle: "none", padding: 0, margin: 0, maxHeight: 260, overflowY: "auto" }}
    >
      {notices.map((notice) => (
        <li key={`${notice.visitorId}-${notice.sentAt}`}>
          <Anchor component={Link} to={`/projects/${notice.projectId}`} size="sm" onClick={onOpen}>
            {selectionSentence(notice)}
          </Anchor>
          <Text size="xs" color="dimmed">
            {new Date(notice.sentAt).toLocaleString()}
          </Text>
        </li>
      ))}
    </Box>
  );
}
