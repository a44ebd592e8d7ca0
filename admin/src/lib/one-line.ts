import { isSingleLine } from "../../../api/validation";
import { t } from "../i18n";

/** api/validation's single-line rule, its message in the web app's language; `fieldKey` names the field. */
export const oneLineProblem = (fieldKey: string, value: string): string | null =>
  isSingleLine(value) ? null : t("app.notOnOneLine", { field: t(fieldKey) });
