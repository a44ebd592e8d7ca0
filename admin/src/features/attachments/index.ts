export { AttachmentsCard } from "./attachments-card";
