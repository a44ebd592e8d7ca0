import { formatSize } from "../delivery/delivery-page";
import { formatExpiry, oneLine } from "../sending/client-mail";
import type { ProjectForMail } from "../sending/sending.repository";

const WHY =
  "You get this e-mail because you sent this gallery from Photodrop (admins get it when nobody did). " +
  "Turn these e-mails off in Photodrop under Notification settings, the bell at the top of the page.";

const pageLine = (publicUrl: string | undefined, projectId: number) =>
  publicUrl ? [`${publicUrl}/projects/${projectId}`, ""] : [];

/** '{client} downloaded {project}': the first full download of the originals' ZIP. */
export function downloadedMail(project: ProjectForMail, client: string, at: string, publicUrl: string | undefined) {
  return {
    subject: oneLine(`${client} downloaded ${project.name}`),
    text: [
      `${client} downloaded all the photos of ${project.name} (the ZIP of ${project.photoCount} photos, ${formatSize(project.totalSize)}) on ${formatExpiry(at)}.`,
      "",
      ...pageLine(publicUrl, project.id),
      WHY,
      "",
    ].join("\n"),
  };
}

/** A link that expired with no full download. */
export function expiredUnusedMail(project: ProjectForMail, client: string, publicUrl: string | undefined) {
  return {
    subject: oneLine(`The link to ${project.name} expired unused`),
    text: [
      `The delivery link of ${project.name} for ${client} expired on ${formatExpiry(project.expiresAt ?? new Date().toISOString())}, and the photos were never downloaded in full.`,
      "To give the client more time, set a later expiry on the project's page and send the link again.",
      "",
      ...pageLine(publicUrl, project.id),
      WHY,
      "",
    ].join("\n"),
  };
}
