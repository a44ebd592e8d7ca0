import type { HttpError, ValidationErrors } from "@refinedev/core";
import { t } from "../i18n";

/**
 * The server's answers the web app knows (status and the server's English text, as a field's
 * message or the whole answer's), each with its catalogue key: the catalogue's English is the
 * server's text word for word, so English shows as it always did. Any other text is shown as sent.
 * server-messages.test.ts reads the server's code and fails on a message it can send that is neither
 * here, nor in PATTERNS, nor on its short list of messages the web app never shows.
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
    "Select at least one attachment": "server.selectAtLeastOnePhoto",
    "Malformed multipart body": "server.malformedUpload",
    "Upload was interrupted": "server.uploadInterrupted",
    "No file uploaded": "server.noFileUploaded",
    "Email is required": "server.emailRequired",
    "Password is required": "server.passwordRequired",
    "Client is required": "server.clientRequired",
    "Client not found": "server.clientNotFound",
    "Passcode must be 4 to 64 characters": "delivery.passcodeLength",
    "The favourites limit must be a whole number": "server.favouritesLimitWhole",
    "Remind at least 1 day before the link expires": "server.remindAtLeast",
    "days must be a whole number": "server.daysWhole",
    "The cover must be one of the project's photos": "server.coverNotInProject",
    "Subject is required": "server.subjectRequired",
    "Message must not contain control characters": "server.messageControl",
    "Type the passcode": "server.typePasscode",
    "Choose at least one recipient": "server.chooseRecipient",
    "Choose contacts of this project's client": "server.chooseClientContacts",
    "This link has no passcode": "server.linkHasNoPasscode",
    "This is not the link's passcode": "server.notLinkPasscode",
    "The code is not right": "server.codeNotRight",
    "Wrong or already used code": "server.wrongOrUsedCode",
    "The password is not right": "server.passwordNotRight",
    "Wrong password": "server.wrongPassword",
    "Enter your password": "server.enterPassword",
    "Enter the code": "server.enterCode",
    "A code is six digits": "server.codeSixDigits",
    "Start again: the passkey's challenge was used or has run out": "server.passkeyStartAgain",
    "The passkey could not be verified": "server.passkeyNotVerified",
    "Passkeys need a secure connection: open Photodrop over HTTPS (or at http://localhost on the computer it runs on). Over plain HTTP the browser does not offer them.":
      "server.passkeysNeedHttps",
    "Passkeys need the studio's address by name (HTTPS), not an IP address: browsers refuse them there.":
      "server.passkeysNeedHostName",
    "Password must contain an uppercase letter": "server.passwordUppercase",
    "Password must contain a lowercase letter": "server.passwordLowercase",
    "Password must contain a number": "server.passwordNumber",
    "Password must contain a non-alphanumeric character": "server.passwordSymbol",
    "url is required": "server.urlRequired",
    "url must be an absolute http or https URL": "server.urlNotAbsolute",
    "url must not hold a user name or password": "server.urlWithCredentials",
    "events must name at least one event type": "server.eventsRequired",
  },
  401: {
    "Authentication required": "server.authenticationRequired",
    "Invalid email or password": "server.invalidLogin",
    "Google sign-in failed": "server.googleFailed",
    "Google sign-in failed: the e-mail address is not verified": "server.googleUnverified",
    "Invalid or expired refresh token": "server.invalidRefreshToken",
    "Invalid or expired token": "server.invalidToken",
    "Invalid or expired sign-in challenge, or wrong code": "server.twoFactorSignInRefused",
    "The passkey was not accepted. Try again, or sign in with your password.": "server.passkeyNotAccepted",
  },
  403: {
    "Access not approved": "server.accessNotApproved",
    "Admin access required": "server.adminRequired",
    "Only admins may create admin tokens": "server.adminTokensOnlyByAdmins",
    "The code is not right": "server.codeNotRight",
    "The password is not right": "server.passwordNotRight",
    "This account has no password: turn on two-factor sign-in and give a code instead": "server.accountWithoutPassword",
    "Two-factor sign-in is required: turn it on in Security first": "server.twoFactorRequired",
  },
  404: {
    "Not found": "server.notFound",
    "Project not found": "server.projectNotFound",
    "Attachment not found": "server.attachmentNotFound",
    "Client not found": "server.clientNotFound",
    "Contact not found": "server.contactNotFound",
    "User not found": "server.userNotFound",
    "Passkey not found": "server.passkeyNotFound",
    "Session not found": "server.sessionNotFound",
    "Webhook not found": "server.webhookNotFound",
    "Attempt not found": "server.attemptNotFound",
    "API token not found": "server.apiTokenNotFound",
    "Selection not found": "server.selectionNotFound",
    "Project is not published": "server.projectNotPublished",
    "Google sign-in is not enabled": "server.googleOff",
  },
  408: {
    "Upload timed out": "server.uploadTimedOut",
    "Request body timed out": "server.requestTimedOut",
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
    "This passkey is registered already": "server.passkeyRegistered",
    "Two-factor sign-in is already on; turn it off first to use another app": "server.twoFactorAlreadyOn",
    "No two-factor enrolment is waiting for a code": "server.noEnrolmentWaiting",
    "Two-factor sign-in is not on": "server.twoFactorNotOn",
    "Turn your own two-factor sign-in off in Security": "server.ownTwoFactor",
    "Two-factor sign-in is not on for this user": "server.twoFactorNotOnForUser",
    "Project is not published": "server.projectNotPublished",
    "Mail is not set up: set SMTP_URL and MAIL_FROM to send e-mail": "server.mailNotSetUp",
    "Set PUBLIC_URL to the address your clients reach Photodrop at: this address is not one a client can open.":
      "server.publicUrlNotPublic",
    "The link has expired: set a later expiry before sending it": "server.linkExpired",
  },
  412: {
    "Precondition failed": "server.preconditionFailed",
    "Someone else saved this record while you were editing": "server.savedByOthers",
  },
  413: {
    "Request body too large": "server.requestTooLarge",
    "File too large": "server.fileTooLarge",
  },
  415: {
    "Image is damaged or incomplete": "server.imageDamaged",
    "Image is too large to process": "server.imageTooLargeToProcess",
    "Unsupported file type": "server.unsupportedFileType",
    "The logo must be a JPEG, PNG, GIF or WebP image": "server.logoType",
  },
  429: {
    "Too many attempts, please try again later": "server.tooManyAttempts",
    "Too many mails sent in the last hour, please try again later": "server.tooManyMails",
  },
  500: {
    "Internal server error": "server.internalError",
  },
  507: {
    "The server's disk is full. Free some space and try again.": "server.diskFull",
  },
};

/**
 * Texts with a number, an address or a field's name inside. The named groups fill the key's
 * {{placeholders}}; a `field` group is the field's name, said in the web app's language by FIELDS
 * (a name not there leaves the text as sent).
 */
const PATTERNS: readonly { status: number; pattern: RegExp; key: string }[] = [
  { status: 400, pattern: /^(?<field>[A-Za-z ]+) must be at most (?<max>\d+) characters$/, key: "app.tooLong" },
  {
    status: 400,
    pattern: /^(?<field>[A-Za-z ]+) must be on one line, without control characters$/,
    key: "app.notOnOneLine",
  },
  { status: 400, pattern: /^At most (?<max>\d+) attachments at once$/, key: "server.tooManyPhotosAtOnce" },
  { status: 400, pattern: /^At most (?<max>\d+) attachments kept at once$/, key: "server.tooManyPhotosKept" },
  { status: 400, pattern: /^At most (?<max>\d+) files per upload$/, key: "server.tooManyFiles" },
  { status: 400, pattern: /^The favourites limit must be 1 to (?<max>\d+)$/, key: "server.favouritesLimitRange" },
  { status: 400, pattern: /^Remind at most (?<max>\d+) days before the link expires$/, key: "server.remindAtMost" },
  { status: 400, pattern: /^At most (?<max>\d+) recipients at once$/, key: "server.tooManyRecipients" },
  {
    status: 400,
    pattern: /^Contact (?<id>\d+) is not a contact of this project's client$/,
    key: "server.notClientContact",
  },
  { status: 400, pattern: /^Password must be at least (?<min>\d+) characters$/, key: "server.passwordTooShort" },
  {
    status: 400,
    pattern:
      /^Passkeys are offered at (?<origin>\S+), the studio's address \(PUBLIC_URL\): open Photodrop there to use them\.$/,
    key: "server.passkeysElsewhere",
  },
  { status: 400, pattern: /^(?<address>\S+) is not an IP address$/, key: "server.notAnIpAddress" },
  {
    status: 400,
    pattern: /^(?<address>\S+) is a link-local, metadata or reserved address, never allowed$/,
    key: "server.reservedAddress",
  },
  {
    status: 400,
    pattern: /^(?<address>\S+) is a loopback or private address \(allowed only with WEBHOOK_ALLOW_PRIVATE=1\)$/,
    key: "server.privateAddress",
  },
  { status: 404, pattern: /^Unknown attachment ids: (?<ids>[\d, ]+)$/, key: "server.unknownPhotoIds" },
  {
    status: 409,
    pattern: /^You have (?<max>\d+) API tokens: delete one you no longer use first$/,
    key: "server.apiTokenLimit",
  },
  {
    status: 409,
    pattern:
      /^Set PUBLIC_URL to the address your clients reach Photodrop at: a link to (?<origin>\S+) only opens on this computer\.$/,
    key: "server.publicUrlLocal",
  },
  { status: 415, pattern: /^Image has more than (?<max>\d+) megapixels$/, key: "server.imageTooManyPixels" },
];

/** The field names the server puts in front of a rule ("Display name must be at most 200 characters"). */
const FIELDS: Record<string, string> = {
  Name: "app.name",
  "Display name": "server.fields.displayName",
  Email: "server.fields.email",
  "Phone number": "server.fields.phoneNumber",
  Description: "server.fields.description",
  Message: "server.fields.message",
  Subject: "server.fields.subject",
  Passcode: "server.fields.passcode",
  Password: "server.fields.password",
  "Web site": "server.fields.webSite",
  url: "server.fields.url",
};

/** A table's own entry: a text such as "constructor" or "toString" is no key of ours. */
const ownValue = (table: Record<string, string>, text: string) =>
  Object.hasOwn(table, text) ? table[text] : undefined;

function fromPattern(status: number, message: string): string | undefined {
  for (const { status: patternStatus, pattern, key } of PATTERNS) {
    const values = patternStatus === status ? message.match(pattern)?.groups : undefined;
    if (!values) continue;
    if (values.field === undefined) return t(key, values);
    const field = ownValue(FIELDS, values.field);
    if (field) return t(key, { ...values, field: t(field) });
  }
  return undefined;
}

/** The server's text for a failure with this status in the web app's language, when it is a known one. */
export function serverMessage(status: number, message: string): string {
  const key = ownValue(KNOWN[status] ?? {}, message);
  return key ? t(key) : (fromPattern(status, message) ?? message);
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

/** Every text listed, and the patterns, for the test that keeps them the server's own. */
export const KNOWN_SERVER_MESSAGES = KNOWN;
export const SERVER_MESSAGE_PATTERNS = PATTERNS;
