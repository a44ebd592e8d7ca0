export { AttachmentsCard } from "./attachments-card";
export { usePhotoPages } from "./use-photo-page";
