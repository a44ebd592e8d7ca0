import {
  CONTACT_MAX,
  INVALID_ACCENT,
  INVALID_TIME_ZONE,
  INVALID_WEBSITE,
  STUDIO_NAME_MAX,
  studioFieldProblems,
  websiteAsSaved,
} from "../../../../api/studio";
import { singleLineProblem } from "../../../../api/validation";
import type { ClientLanguage } from "../../../../api/client-languages";
import type { StudioSettings } from "../../../../api/types";
import { emailError, phoneError } from "../contacts/index";
import { oneLineProblem } from "../../lib/one-line";
import { t } from "../../i18n";

/** The Studio screen's fields, as typed: text throughout, blank for "none". */
export interface StudioFormValues {
  name: string;
  accentColor: string;
  contactEmail: string;
  contactPhone: string;
  contactWebsite: string;
  /** IANA name, the zone of times in the client's mails. */
  timeZone: string;
  /** The clients' galleries and mails, unless a project chooses its own. */
  language: ClientLanguage;
  /** Galleries follow the visitor's browser language. */
  followBrowserLanguage: boolean;
  /** Everyone signs in with two-factor: whoever has none is led to turn it on first. */
  requireTwoFactor: boolean;
}

/** What PUT /api/studio/settings takes: trimmed, blank contact fields as null. */
export type StudioPayload = Omit<StudioFormValues, "contactEmail" | "contactPhone" | "contactWebsite"> & {
  contactEmail: string | null;
  contactPhone: string | null;
  contactWebsite: string | null;
};

/**
 * api/studio's messages (English, the server's too) as the web app says them: each known one from
 * the catalogue; one not listed here is shown as the rule gave it.
 */
const CATALOGUE_TEXT: Record<string, () => string> = {
  "Name is required": () => t("app.nameRequired"),
  [`Name must be at most ${STUDIO_NAME_MAX} characters`]: () =>
    t("app.tooLong", { field: t("app.name"), max: STUDIO_NAME_MAX }),
  [singleLineProblem("Name", "\n") ?? ""]: () => oneLineProblem("app.name", "\n") ?? "",
  [`Web site must be at most ${CONTACT_MAX} characters`]: () =>
    t("app.tooLong", { field: t("studio.webSite"), max: CONTACT_MAX }),
  [singleLineProblem("Web site", "\n") ?? ""]: () => oneLineProblem("studio.webSite", "\n") ?? "",
  [INVALID_ACCENT]: () => t("studio.invalidAccent"),
  [INVALID_WEBSITE]: () => t("studio.invalidWebsite"),
  [INVALID_TIME_ZONE]: () => t("studio.invalidTimeZone"),
};

const inWebAppLanguage =
  (rule: (value: string) => string | null) =>
  (value: string): string | null => {
    const problem = rule(value);
    return problem === null ? null : (CATALOGUE_TEXT[problem]?.() ?? problem);
  };

const problems = {
  name: inWebAppLanguage(studioFieldProblems.name),
  accentColor: inWebAppLanguage(studioFieldProblems.accentColor),
  contactWebsite: inWebAppLanguage(studioFieldProblems.contactWebsite),
  timeZone: inWebAppLanguage(studioFieldProblems.timeZone),
};

export const studioNameError = (value: string) => problems.name(value.trim());

export const accentError = (value: string) => problems.accentColor(value.trim());

/** Optional; one that is given is an http(s) address (the server's rule). */
export const websiteError = (value: string) => problems.contactWebsite(value.trim());

export const timeZoneError = problems.timeZone;

/** The same rules the server applies, for Mantine's `validate`. */
export const studioRules = {
  name: studioNameError,
  accentColor: accentError,
  contactEmail: emailError,
  contactPhone: phoneError,
  contactWebsite: websiteError,
  timeZone: timeZoneError,
};

export function toFormValues(settings: StudioSettings | undefined): StudioFormValues {
  return {
    name: settings?.name ?? "",
    accentColor: settings?.accentColor ?? "",
    contactEmail: settings?.contactEmail ?? "",
    contactPhone: settings?.contactPhone ?? "",
    contactWebsite: settings?.contactWebsite ?? "",
    timeZone: settings?.timeZone ?? "",
    language: settings?.language ?? "en",
    followBrowserLanguage: settings?.followBrowserLanguage ?? false,
    requireTwoFactor: settings?.requireTwoFactor ?? false,
  };
}

const optional = (value: string) => value.trim() || null;

export function toStudioPayload(values: StudioFormValues): StudioPayload {
  return {
    name: values.name.trim(),
    accentColor: values.accentColor.trim().toLowerCase(),
    contactEmail: optional(values.contactEmail),
    contactPhone: optional(values.contactPhone),
    contactWebsite: websiteAsSaved(values.contactWebsite.trim()),
    timeZone: values.timeZone,
    language: values.language,
    followBrowserLanguage: values.followBrowserLanguage,
    requireTwoFactor: values.requireTwoFactor,
  };
}
