import type { HttpError, ValidationErrors } from "@refinedev/core";
import { t } from "../i18n";

/**
 * The server's answers the web app knows (status and the server's English text, as a field's
 * message or the whole answer's), each with its catalogue key: the catalogue's English is the
 * server's text word for word, so English shows as it always did. Any other text is shown as sent.
 */
const KNOWN: Record<number, Record<string, string>> = {
  400: {
    "Name is required": "app.nameRequired",
    "Invalid email format": "app.invalidEmail",
    "A phone number may hold only digits, spaces and + ( ) - . /": "app.invalidPhone",
    "The expiry must be in the future": "delivery.expiryInPast",
    "Passcode must have a character other than a space": "delivery.passcodeOnlySpaces",
    "Accent colour must be #rrggbb": "studio.invalidAccent",
    "Web site must be an http:// or https:// address": "studio.invalidWebsite",
    "Time zone must be one of the IANA time zones, such as Europe/Berlin": "studio.invalidTimeZone",
    "Project has no attachments": "server.projectHasNoAttachments",
    "Invalid or expired reset link": "server.invalidResetLink",
  },
  409: {
    "Project is published": "server.projectIsPublished",
    "Project is already published": "server.projectAlreadyPublished",
    "Publish the project before sending it": "server.publishBeforeSending",
    "The project's attachments changed since they were selected; select them again": "server.selectionChanged",
    "Email already in use": "server.emailInUse",
    "You cannot revoke your own access": "server.ownAccess",
    "You cannot remove your own admin role": "server.ownAdminRole",
    "The last admin cannot lose access or the admin role": "server.lastAdmin",
    "This webhook is turned off: turn it on to send it events": "server.webhookOff",
    "This event is being sent right now": "server.eventBeingSent",
  },
  507: {
    "The server's disk is full. Free some space and try again.": "server.diskFull",
  },
};

/** The server's text for a failure with this status in the web app's language, when it is a known one. */
export function serverMessage(status: number, message: string): string {
  const key = KNOWN[status]?.[message];
  return key ? t(key) : message;
}

/** A failure's message and field messages in the web app's language where they are known ones. */
export function inWebAppLanguage(error: HttpError): HttpError {
  const errors = error.errors
    ? (Object.fromEntries(
        Object.entries(error.errors).map(([field, text]) => [
          field,
          typeof text === "string" ? serverMessage(error.statusCode, text) : text,
        ]),
      ) as ValidationErrors)
    : error.errors;
  return { ...error, message: serverMessage(error.statusCode, error.message), errors };
}

/** Every text listed, for the test that keeps them the server's own. */
export const KNOWN_SERVER_MESSAGES = KNOWN;
