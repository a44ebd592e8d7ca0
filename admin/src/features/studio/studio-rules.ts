import { studioFieldProblems as problems, websiteAsSaved } from "../../../../api/studio";
import type { ClientLanguage } from "../../../../api/client-languages";
import type { StudioSettings } from "../../../../api/types";
import { emailError, phoneError } from "../contacts/index";

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
