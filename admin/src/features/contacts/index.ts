export { ContactsPanel } from "./contacts-panel";
