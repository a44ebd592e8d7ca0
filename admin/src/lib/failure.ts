import { useState } from "react";
import type { HttpError } from "@refinedev/core";
import { t } from "../i18n";

/**
 * What a dialog says when its action failed: the server's message, unless the failure is only
 * about fields the form shows (their messages are on the fields already).
 */
export function failureMessage(error: Partial<HttpError> | undefined, formFields: readonly string[] = []) {
  const fields = Object.keys(error?.errors ?? {});
  if (fields.length > 0 && fields.every((field) => formFields.includes(field))) return null;
  return error?.message || t("app.somethingWentWrong");
}

/** The failure a dialog shows until it is tried again or reopened. */
export function useFailure(formFields: readonly string[] = []) {
  const [message, setMessage] = useState<string | null>(null);
  return {
    message,
    show: (error: Partial<HttpError> | undefined) => setMessage(failureMessage(error, formFields)),
    clear: () => setMessage(null),
  };
}

/** A dialog's failure for what it is about: opening it for another (or again) starts without one. */
export function useFailureFor<T>(subject: T, formFields: readonly string[] = []) {
  const failure = useFailure(formFields);
  // React's "adjust state on a prop change", while rendering rather than in an effect.
  const [shownFor, setShownFor] = useState(subject);
  if (subject !== shownFor) {
    setShownFor(subject);
    failure.clear();
  }
  return failure;
}
