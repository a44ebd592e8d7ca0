export { ContactsPanel } from "./contacts-panel";
/** The contact rules, which the Studio screen's contact line follows too. */
export { emailError, phoneError } from "./contact-rules";
