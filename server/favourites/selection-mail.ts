import { lightroomFilter } from "../../api/favourites";
import { oneLine } from "../sending/client-mail";

export interface SelectionMailView {
  projectId: number;
  projectName: string;
  visitor: { name: string; email: string };
  picks: Array<{ originalName: string; comment: string | null }>;
  publicUrl: string | undefined;
}

const WHY =
  "You get this e-mail because you sent this gallery from Photodrop (admins get it when nobody did). " +
  "Turn these e-mails off in Photodrop under Notification settings, the bell at the top of the page.";

/**
 * 'Selection from {name} for {project}': the picks one per line with their comments, and the
 * Lightroom filter text, so the studio can act on it without opening Photodrop. Plain text only:
 * every part the visitor wrote was checked to be one line of plain text.
 */
export function selectionMail(v: SelectionMailView): { subject: string; text: string } {
  const count = v.picks.length;
  const names = v.picks.map((p) => p.originalName);
  const withComments = v.picks.map((p) => (p.comment ? `${p.originalName}: ${oneLine(p.comment)}` : p.originalName));
  return {
    subject: oneLine(`Selection from ${v.visitor.name} for ${v.projectName}`),
    text: [
      `${oneLine(v.visitor.name)} <${v.visitor.email}> sent a selection of ${count} ${count === 1 ? "photo" : "photos"} from ${v.projectName}.`,
      "",
      ...withComments,
      "",
      "Lightroom filter text (Library, Text, Filename contains):",
      lightroomFilter(names),
      "",
      ...(v.publicUrl ? [`${v.publicUrl}/projects/${v.projectId}`, ""] : []),
      WHY,
      "",
    ].join("\n"),
  };
}
